package conformance

import (
	"fmt"
	"testing"
	"time"
)

func init() { register(ttlExpiryCase()) }

// ttlPollSeconds bounds the wait for DynamoDB Local to delete expired
// items. DynamoDB Local 3.x runs a TTL sweeper that deleted them within
// 0.1 to 2 seconds in every trial; Amazon DynamoDB takes up to a few days,
// and the engine never returns an expired item (it hides it until its own
// sweeper deletes it).
const ttlPollSeconds = 30

// ttlSweepInterval is the engine's TTL sweep interval in the suite (see
// engine_test.go): short, as DynamoDB Local's sweeper is, so that expired
// items are deleted, not only hidden, within the case.
const ttlSweepInterval = 200 * time.Millisecond

// ttlAnchor is the day the TTL values of ttlExpiryCase are reckoned from. It is
// fixed, not today, so that the requests and DynamoDB Local's recorded answers
// in testdata/golden/ stay the same from day to day. It stays valid while the
// day before it is less than five years ago (TestTTLAnchorStillValid).
var ttlAnchor = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// ttlTimes are the TTL attribute values of ttlExpiryCase, in epoch seconds:
// the day before anchor (expired), ten years after it, and six years before it
// (beyond the five years in the past after which DynamoDB ignores a TTL value).
func ttlTimes(anchor time.Time) (past, future, ancient string) {
	day := anchor.Unix() / 86400 * 86400
	return fmt.Sprint(day - 86400), fmt.Sprint(day + 10*365*86400), fmt.Sprint(day - 6*366*86400)
}

// ttlExpiryCase checks time-to-live settings and expiry. Per "Time to Live
// (TTL)" in the DynamoDB Developer Guide, an item expires when its TTL
// attribute is a Number of epoch seconds at or before now; items whose
// attribute is missing, of another type (a string, a number set), in the
// future (a milliseconds value is far in the future), or more than five
// years in the past are never deleted.
func ttlExpiryCase() Case {
	past, future, ancient := ttlTimes(ttlAnchor)
	t := "{{t}}"
	spec := func(name string, enabled bool) M {
		return M{"TableName": t, "TimeToLiveSpecification": M{"AttributeName": name, "Enabled": enabled}}
	}
	items := []M{
		{"PK": S("past"), "exp": N(past)},
		{"PK": S("future"), "exp": N(future)},
		{"PK": S("string"), "exp": S(past)},
		{"PK": S("number-set"), "exp": NS(past)},
		{"PK": S("missing")},
		{"PK": S("ancient"), "exp": N(ancient)},
		{"PK": S("millis"), "exp": N(past + "000")},
		{"PK": S("other-attr"), "other": N(past)},
	}
	var kept []any
	for _, it := range items[1:] {
		kept = append(kept, it)
	}
	steps := []Step{
		withID(failStep("UpdateTimeToLive", "ResourceNotFoundException", merge(spec("exp", true), M{"TableName": "{{nope}}"})), "update-missing-table"),
		withID(failStep("DescribeTimeToLive", "ResourceNotFoundException", M{"TableName": "{{nope}}"}), "describe-missing-table"),
		withID(failStep("UpdateTimeToLive", "ValidationException", M{"TableName": t}), "no-specification"),
		withID(failStep("UpdateTimeToLive", "ValidationException", spec("", true)), "empty-attribute-name"),
		withID(expecting(step("DescribeTimeToLive", M{"TableName": t}), M{"TimeToLiveDescription": M{"TimeToLiveStatus": "DISABLED"}}), "initially-disabled"),
		withID(expecting(step("UpdateTimeToLive", spec("exp", true)), M{"TimeToLiveSpecification": M{"AttributeName": "exp", "Enabled": true}}), "enable"),
		withID(expecting(step("DescribeTimeToLive", M{"TableName": t}), M{"TimeToLiveDescription": M{"TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}}), "enabled"),
		withID(failStep("UpdateTimeToLive", "ValidationException", spec("exp", true)), "enable-twice"),
		withID(failStep("UpdateTimeToLive", "ValidationException", spec("other", true)), "enable-other-attribute"),
		withID(failStep("UpdateTimeToLive", "ValidationException", spec("other", false)), "disable-other-attribute"),
	}
	for _, it := range items {
		steps = append(steps, withID(step("PutItem", M{"TableName": t, "Item": it}), "put-"+it["PK"].(M)["S"].(string)))
	}
	// Expired items may be read until they are deleted: poll until both
	// targets have dropped "past" (and only it).
	expiry := withID(expecting(step("Scan", M{"TableName": t}), M{"Items": kept, "Count": len(kept), "ScannedCount": len(kept)}), "expired-deleted")
	expiry.PollSeconds = ttlPollSeconds
	// The engine hides an expired item at once but deletes it only at its
	// next sweep: wait for that before disabling TTL, which would otherwise
	// keep the item (as in DynamoDB, where disabling TTL before the
	// background deletion keeps the item too).
	disable := withID(expecting(step("UpdateTimeToLive", spec("exp", false)), M{"TimeToLiveSpecification": M{"AttributeName": "exp", "Enabled": false}}), "disable")
	disable.SleepMillis = int(3 * ttlSweepInterval / time.Millisecond)
	steps = append(steps, expiry,
		withID(expecting(step("GetItem", M{"TableName": t, "Key": M{"PK": S("past")}}), M{}), "get-expired"),
		withID(step("GetItem", M{"TableName": t, "Key": M{"PK": S("ancient")}}), "get-ancient"),
		disable,
		withID(step("DescribeTimeToLive", M{"TableName": t}), "disabled"),
	)
	// The expired item was deleted, not hidden: disabling TTL does not bring
	// it back.
	afterDisable := withID(expecting(step("Scan", M{"TableName": t}), M{"Items": kept, "Count": len(kept), "ScannedCount": len(kept)}), "after-disable")
	afterDisable.PollSeconds = ttlPollSeconds
	steps = append(steps, afterDisable)
	return Case{
		Name:   "ttl-expiry",
		Doc:    "UpdateTimeToLive/DescribeTimeToLive errors and states, and expiry: an item whose Number TTL attribute is past is deleted (polled for up to 30 s); future, non-Number, missing and over-five-years-old values are kept.",
		Tables: map[string]string{"t": "pk"},
		Steps:  steps,
	}
}

// TestTTLAnchorStillValid fails when ttlAnchor has grown so old that its
// "past" value would no longer expire (DynamoDB ignores TTL values more than
// five years in the past), or lies in the future: then move it to a recent
// day and re-record with -conformance.record.
func TestTTLAnchorStillValid(t *testing.T) {
	past, _, _ := ttlTimes(ttlAnchor)
	var sec int64
	if _, err := fmt.Sscan(past, &sec); err != nil {
		t.Fatal(err)
	}
	age := time.Since(time.Unix(sec, 0))
	if age < 0 || age > 4*365*24*time.Hour {
		t.Fatalf("ttlAnchor %s: its expired value is %s old; move it to a recent day and re-record testdata/golden/ttl-expiry.json", ttlAnchor.Format("2006-01-02"), age.Round(time.Hour))
	}
}
