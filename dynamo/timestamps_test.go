package dynamo

import (
	"reflect"
	"strings"
	"testing"
)

func TestCanonicalTimestamps(t *testing.T) {
	tests := []struct {
		name    string
		item    Item
		want    Item
		wantErr string
	}{{
		name: "tutorial photo: kept as it is",
		item: Item{"PK": str("USER#jacksonjason"), "SK": str("PHOTO#jacksonjason#2018-05-30T15:42:38"), "timestamp": str("2018-05-30T15:42:38"), "location": str("https://x/y")},
		want: Item{"PK": str("USER#jacksonjason"), "SK": str("PHOTO#jacksonjason#2018-05-30T15:42:38"), "timestamp": str("2018-05-30T15:42:38"), "location": str("https://x/y")},
	}, {
		name: "tutorial reaction: kept as it is",
		item: Item{"PK": str("REACTION#ada#heart"), "SK": str("PHOTO#bob#2018-05-30T15:42:38"), "photo": str("PHOTO#bob#2018-05-30T15:42:38"), "timestamp": str("2018-06-01T00:00:00")},
		want: Item{"PK": str("REACTION#ada#heart"), "SK": str("PHOTO#bob#2018-05-30T15:42:38"), "photo": str("PHOTO#bob#2018-05-30T15:42:38"), "timestamp": str("2018-06-01T00:00:00")},
	}, {
		name: "an earlier release's photo: the Z goes",
		item: Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38Z"), "timestamp": str("2018-05-30T15:42:38Z")},
		want: Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38"), "timestamp": str("2018-05-30T15:42:38")},
	}, {
		name: "an earlier release's reaction: SK, photo and timestamp",
		item: Item{"PK": str("REACTION#ada#heart"), "SK": str("PHOTO#bob#2018-05-30T15:42:38Z"), "photo": str("PHOTO#bob#2018-05-30T15:42:38Z"), "timestamp": str("2018-06-01T00:00:00Z")},
		want: Item{"PK": str("REACTION#ada#heart"), "SK": str("PHOTO#bob#2018-05-30T15:42:38"), "photo": str("PHOTO#bob#2018-05-30T15:42:38"), "timestamp": str("2018-06-01T00:00:00")},
	}, {
		name: "an earlier release's friendship",
		item: Item{"PK": str("USER#bob"), "SK": str("#FRIEND#ada"), "timestamp": str("2018-06-01T00:00:00Z")},
		want: Item{"PK": str("USER#bob"), "SK": str("#FRIEND#ada"), "timestamp": str("2018-06-01T00:00:00")},
	}, {
		name: "an earlier release's feed entry keeps its expiry",
		item: Item{"PK": str("FEED#ada"), "SK": str("2018-05-30T15:42:38Z#bob"), "username": str("bob"), "timestamp": str("2018-05-30T15:42:38Z"), "expiresAt": num(1700000000)},
		want: Item{"PK": str("FEED#ada"), "SK": str("2018-05-30T15:42:38#bob"), "username": str("bob"), "timestamp": str("2018-05-30T15:42:38"), "expiresAt": num(1700000000)},
	}, {
		name: "an earlier release's deletion record",
		item: Item{"PK": str("DELETION#bob#2018-05-30T15:42:38Z"), "SK": str("#DELETION"), "photo": str("PHOTO#bob#2018-05-30T15:42:38Z"), "deletion": str("d1"), "timestamp": str("2024-01-01T00:00:00Z")},
		want: Item{"PK": str("DELETION#bob#2018-05-30T15:42:38"), "SK": str("#DELETION"), "photo": str("PHOTO#bob#2018-05-30T15:42:38"), "deletion": str("d1"), "timestamp": str("2024-01-01T00:00:00")},
	}, {
		name: "an offset and a zero fraction become the canonical form",
		item: Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T17:42:38.000+02:00")},
		want: Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38")},
	}, {
		name: "a popular mark has no timestamp",
		item: Item{"PK": str("FEED#ada"), "SK": str("~POPULAR#bob")},
		want: Item{"PK": str("FEED#ada"), "SK": str("~POPULAR#bob")},
	}, {
		name: "items that are not ours keep their timestamp attribute as it is",
		item: Item{"PK": str("ORDER#1"), "SK": str("LINE#1"), "timestamp": str("yesterday")},
		want: Item{"PK": str("ORDER#1"), "SK": str("LINE#1"), "timestamp": str("yesterday")},
	}, {
		name:    "a photo key without a timestamp",
		item:    Item{"PK": str("USER#a"), "SK": str("PHOTO#a")},
		wantErr: "does not name a photo",
	}, {
		name:    "a photo key with a year out of range",
		item:    Item{"PK": str("USER#a"), "SK": str("PHOTO#a#9999-01-01T00:00:00")},
		wantErr: "outside",
	}, {
		name:    "a feed entry whose timestamp is not one",
		item:    Item{"PK": str("FEED#a"), "SK": str("soon#b")},
		wantErr: "is not a timestamp",
	}, {
		name:    "a timestamp attribute that is not one",
		item:    Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38"), "timestamp": str("soon")},
		wantErr: "is not a timestamp",
	}, {
		name:    "a timestamp attribute that is a number",
		item:    Item{"PK": str("USER#b"), "SK": str("#FRIEND#a"), "timestamp": num(1)},
		wantErr: "not a string",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := copyItem(tt.item)
			got, err := canonicalTimestamps(tt.item)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %v\nwant %v", got, tt.want)
			}
			if !reflect.DeepEqual(tt.item, before) {
				t.Fatal("the caller's item was changed")
			}
		})
	}
}

func copyItem(item Item) Item {
	out := Item{}
	for k, v := range item {
		out[k] = v
	}
	return out
}

// TestLoadableItem_LoadIsNoMove: an item exported from a migrated table loses the mark that
// tells stream consumers of a move, so a loaded photo is fanned out like any other.
func TestLoadableItem_LoadIsNoMove(t *testing.T) {
	item := Item{"PK": str("USER#a"), "SK": str("PHOTO#a#2018-05-30T15:42:38"), "movedFrom": str("PHOTO#a#2018-05-30T15:42:38Z")}
	got, err := LoadableItem(item)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[attrMovedFrom]; ok || len(got) != 2 {
		t.Errorf("loaded %v, want the item without %s", got, attrMovedFrom)
	}
	if _, ok := item[attrMovedFrom]; !ok {
		t.Error("the caller's item was changed")
	}
}
