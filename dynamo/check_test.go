package dynamo

import (
	"slices"
	"testing"

	"github.com/quickphotos/quickphotos/domain"
)

// TestChecker_ItemKinds: the check reads each item by the kind of its key (kindOf), reports a
// key of a known family that does not parse as malformed, and one of no family as unknown; the
// items that need nothing else to be consistent report nothing.
func TestChecker_ItemKinds(t *testing.T) {
	for _, tc := range []struct {
		key  Key
		want string // a reason reported (a malformed timestamp may add one), "" for none
	}{
		{Key{"USER#ada", "#METADATA#bob"}, "malformed profile key"},
		{Key{"USER#ada", "PHOTO#bob#2019-03-03T18:20:10"}, "malformed photo key"},
		{Key{"REACTION#bob#like", "PHOTO#ada#2019-03-03T18:20:10"}, "malformed reaction key"},
		{Key{"USER#", "#FRIEND#bob"}, "malformed friendship key"},
		{Key{"DELETION#ada", "#DELETION"}, "malformed deletion record"},
		{Key{"FEED#bob", "2019-03-03T18:20:10#"}, "malformed feed entry"},
		{Key{"FEED#bob", "~POPULAR#"}, "malformed feed entry"},
		{Key{"ORDER#1", "LINE#1"}, "an item of no known entity"},
		{Key{"UPLOAD#u1", "#DELETION"}, "an item of no known entity"},
		{feedEntryKey(domain.FeedEntry{Reader: "bob", Photo: domain.PhotoKey{Owner: "ada", Timestamp: "2019-03-03T18:20:10"}}), ""},
		{popularFollowKey("bob", "ada"), ""},
		{checkpointKey("feeds", "shard-1"), ""},
		{mutationMarkKey("bob", "m-1"), ""},
	} {
		c := newChecker()
		c.add(tc.key.item())
		var reasons []string
		for _, p := range c.report().Problems {
			reasons = append(reasons, p.Reason)
		}
		if tc.want == "" && len(reasons) > 0 || tc.want != "" && !slices.Contains(reasons, tc.want) {
			t.Errorf("%s %s: reported %q, want %q", tc.key.PK, tc.key.SK, reasons, tc.want)
		}
	}
}
