package ddb

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// photoTable creates the quick-photos layout with a user, two followers,
// three photos and two reactions.
func photoTable(t *testing.T) *testEnv {
	env := mustOpen(t)
	env.CreateTable("photos", true, gsi("InvertedIndex", "SK", "PK"))
	for _, it := range []map[string]types.AttributeValue{
		item("PK", s("USER#bob"), "SK", s("#METADATA#bob"), "name", s("Bob")),
		item("PK", s("USER#bob"), "SK", s("#FRIEND#amy"), "followingUser", s("amy")),
		item("PK", s("USER#bob"), "SK", s("#FRIEND#cat"), "followingUser", s("cat")),
		item("PK", s("USER#bob"), "SK", s("PHOTO#bob#2020-01-01"), "n", n("1")),
		item("PK", s("USER#bob"), "SK", s("PHOTO#bob#2020-01-02"), "n", n("2")),
		item("PK", s("USER#bob"), "SK", s("PHOTO#bob#2020-01-03"), "n", n("3")),
		item("PK", s("REACTION#amy#heart"), "SK", s("PHOTO#bob#2020-01-01"), "reactionType", s("heart")),
		item("PK", s("REACTION#cat#+1"), "SK", s("PHOTO#bob#2020-01-01"), "reactionType", s("+1")),
		item("PK", s("USER#zed"), "SK", s("#METADATA#zed")),
	} {
		env.Put("photos", it)
	}
	return env
}

// sks returns the SK values of items, in order.
func sks(items []map[string]types.AttributeValue, attr string) string {
	var out []string
	for _, it := range items {
		out = append(out, it[attr].(*types.AttributeValueMemberS).Value)
	}
	return strings.Join(out, " ")
}

func TestQuery(t *testing.T) {
	tests := []struct {
		name    string
		in      dynamodb.QueryInput
		want    string // SK (or PK on the index) values in order
		count   int32
		scanned int32
		more    bool
		code    string
		msg     string
	}{
		{name: "OKPartition", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("USER#bob"))},
			want: "#FRIEND#amy #FRIEND#cat #METADATA#bob PHOTO#bob#2020-01-01 PHOTO#bob#2020-01-02 PHOTO#bob#2020-01-03", count: 6, scanned: 6},
		{name: "OKProfileAndFollowers", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK BETWEEN :a AND :b"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":a", s("#FRIEND#"), ":b", s("#METADATA#bob"))},
			want: "#FRIEND#amy #FRIEND#cat #METADATA#bob", count: 3, scanned: 3},
		{name: "OKRecentPhotosFirst", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK BETWEEN :a AND :b"), ScanIndexForward: aws.Bool(false),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":a", s("#METADATA#bob"), ":b", s("PHOTO$"))},
			want: "PHOTO#bob#2020-01-03 PHOTO#bob#2020-01-02 PHOTO#bob#2020-01-01 #METADATA#bob", count: 4, scanned: 4},
		{name: "OKBeginsWith", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND begins_with(SK, :s)"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("PHOTO#"))},
			want: "PHOTO#bob#2020-01-01 PHOTO#bob#2020-01-02 PHOTO#bob#2020-01-03", count: 3, scanned: 3},
		{name: "OKLessThan", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK < :s"), ScanIndexForward: aws.Bool(false),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("#METADATA#bob"))},
			want: "#FRIEND#cat #FRIEND#amy", count: 2, scanned: 2},
		{name: "OKGreaterEqual", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK >= :s"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("PHOTO#bob#2020-01-02"))},
			want: "PHOTO#bob#2020-01-02 PHOTO#bob#2020-01-03", count: 2, scanned: 2},
		{name: "OKGreater", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK > :s"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("PHOTO#bob#2020-01-02"))},
			want: "PHOTO#bob#2020-01-03", count: 1, scanned: 1},
		{name: "OKLessEqual", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK <= :s"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("#FRIEND#cat"))},
			want: "#FRIEND#amy #FRIEND#cat", count: 2, scanned: 2},
		{name: "OKEqual", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p AND SK = :s"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("#FRIEND#cat"))},
			want: "#FRIEND#cat", count: 1, scanned: 1},
		{name: "OKFilter", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), FilterExpression: aws.String("n >= :two"),
			ExpressionAttributeValues: item(":p", s("USER#bob"), ":two", n("2"))},
			want: "PHOTO#bob#2020-01-02 PHOTO#bob#2020-01-03", count: 2, scanned: 6},
		{name: "OKLimit", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), Limit: aws.Int32(2),
			ExpressionAttributeValues: item(":p", s("USER#bob"))},
			want: "#FRIEND#amy #FRIEND#cat", count: 2, scanned: 2, more: true},
		{name: "OKInvertedIndex", in: dynamodb.QueryInput{IndexName: aws.String("InvertedIndex"), KeyConditionExpression: aws.String("SK = :s AND PK BETWEEN :a AND :b"),
			ExpressionAttributeValues: item(":s", s("PHOTO#bob#2020-01-01"), ":a", s("REACTION#"), ":b", s("USER$"))},
			want: "PHOTO#bob#2020-01-01 PHOTO#bob#2020-01-01 PHOTO#bob#2020-01-01", count: 3, scanned: 3},
		{name: "OKNoMatch", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("USER#nobody"))},
			want: "", count: 0, scanned: 0},
		{name: "ErrConsistentReadOnGSI", in: dynamodb.QueryInput{IndexName: aws.String("InvertedIndex"), ConsistentRead: aws.Bool(true),
			KeyConditionExpression: aws.String("SK = :s"), ExpressionAttributeValues: item(":s", s("x"))},
			code: "ValidationException", msg: "Consistent reads are not supported on global secondary indexes"},
		{name: "ErrNoIndex", in: dynamodb.QueryInput{IndexName: aws.String("nope"), KeyConditionExpression: aws.String("SK = :s"), ExpressionAttributeValues: item(":s", s("x"))},
			code: "ValidationException", msg: "The table does not have the specified index: nope"},
		{name: "ErrNoKeyCondition", in: dynamodb.QueryInput{}, code: "ValidationException",
			msg: "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."},
		{name: "ErrKeyType", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", n("1"))},
			code: "ValidationException", msg: "One or more parameter values were invalid: Condition parameter type does not match schema type"},
		{name: "ErrNotKey", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("n = :p"), ExpressionAttributeValues: item(":p", n("1"))},
			code: "ValidationException"},
		{name: "ErrLimitZero", in: dynamodb.QueryInput{KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("x")), Limit: aws.Int32(0)},
			code: "ValidationException"},
	}
	env := photoTable(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.TableName = aws.String("photos")
			out, err := env.client.Query(env.ctx, &in)
			if tt.code != "" {
				wantErr(t, err, tt.code, tt.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			attrName := "SK"
			if got := sks(out.Items, attrName); got != tt.want {
				t.Errorf("items = %q, want %q", got, tt.want)
			}
			if out.Count != tt.count || out.ScannedCount != tt.scanned {
				t.Errorf("count %d scanned %d", out.Count, out.ScannedCount)
			}
			if (out.LastEvaluatedKey != nil) != tt.more {
				t.Errorf("LastEvaluatedKey = %v", out.LastEvaluatedKey)
			}
		})
	}
}

func TestQuery_Paginate(t *testing.T) {
	for _, forward := range []bool{true, false} {
		for _, index := range []string{"", "InvertedIndex"} {
			t.Run(fmt.Sprintf("forward=%v,index=%q", forward, index), func(t *testing.T) {
				env := mustOpen(t)
				env.CreateTable("tbl", true, gsi("InvertedIndex", "SK", "PK"))
				for i := range 25 {
					env.Put("tbl", item("PK", s("p"), "SK", s(fmt.Sprintf("s%02d", i))))
					env.Put("tbl", item("PK", s(fmt.Sprintf("q%02d", i)), "SK", s("s00")))
				}
				in := &dynamodb.QueryInput{TableName: aws.String("tbl"), Limit: aws.Int32(7), ScanIndexForward: aws.Bool(forward),
					KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("p"))}
				if index != "" {
					in.IndexName = aws.String(index)
					in.KeyConditionExpression = aws.String("SK = :p")
					in.ExpressionAttributeValues = item(":p", s("s00"))
				}
				p := dynamodb.NewQueryPaginator(env.client, in)
				var got []string
				pages := 0
				for p.HasMorePages() {
					pg, err := p.NextPage(env.ctx)
					if err != nil {
						t.Fatal(err)
					}
					pages++
					for _, it := range pg.Items {
						got = append(got, it["PK"].(*types.AttributeValueMemberS).Value+"/"+it["SK"].(*types.AttributeValueMemberS).Value)
					}
				}
				if len(got) != 26 && index != "" || len(got) != 25 && index == "" {
					t.Fatalf("got %d items: %v", len(got), got)
				}
				for i := 1; i < len(got); i++ {
					if (got[i-1] < got[i]) != forward {
						t.Fatalf("order broken at %d: %v", i, got)
					}
				}
				if pages != 4 {
					t.Errorf("pages = %d", pages)
				}
			})
		}
	}
}

func TestQuery_SelectAndProjection(t *testing.T) {
	env := photoTable(t)
	out, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("photos"), Select: types.SelectCount,
		KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("USER#bob"))})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count != 6 || out.Items != nil {
		t.Errorf("count = %d items = %v", out.Count, out.Items)
	}
	out, err = env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("photos"), ProjectionExpression: aws.String("#n"),
		ExpressionAttributeNames: map[string]string{"#n": "name"},
		KeyConditionExpression:   aws.String("PK = :p AND SK = :s"), ExpressionAttributeValues: item(":p", s("USER#bob"), ":s", s("#METADATA#bob"))})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 1 || !sameItem(out.Items[0], item("name", s("Bob"))) {
		t.Errorf("items = %v", out.Items)
	}
	_, err = env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("photos"), Select: types.SelectAllProjectedAttributes,
		KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s("USER#bob"))})
	wantErr(t, err, "ValidationException", "")
}

func TestQuery_PageSizeLimit(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true)
	big := strings.Repeat("x", 100*1024)
	for i := range 15 {
		env.Put("tbl", item("PK", s("p"), "SK", s(fmt.Sprintf("%02d", i)), "big", s(big)))
	}
	out, err := env.client.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("tbl"), KeyConditionExpression: aws.String("PK = :p"),
		ExpressionAttributeValues: item(":p", s("p")), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
	if err != nil {
		t.Fatal(err)
	}
	if out.Count >= 15 || out.Count < 9 || out.LastEvaluatedKey == nil {
		t.Fatalf("count = %d, lek = %v", out.Count, out.LastEvaluatedKey)
	}
	// At most 1 MB read eventually consistent: at most 256 units halved.
	if cu := *out.ConsumedCapacity.CapacityUnits; cu < 100 || cu > 128 {
		t.Errorf("capacity = %v", cu)
	}
}
