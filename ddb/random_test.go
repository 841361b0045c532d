package ddb

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestRandomOperations applies random writes to a table with a GSI and an
// LSI, checks the invariants, and compares every partition's Query (table
// and index) with an in-memory model.
func TestRandomOperations(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	env := mustOpen(t)
	_, err := env.client.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String("tbl"), BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("SK"), AttributeType: types.ScalarAttributeTypeS}, {AttributeName: aws.String("G"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("L"), AttributeType: types.ScalarAttributeTypeN}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("gsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("G"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"v"}}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("lsi"), KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("L"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ g, l string }
	model := map[[2]string]row{}
	for range 400 {
		pk, sk := fmt.Sprint("p", rng.IntN(4)), fmt.Sprint("s", rng.IntN(8))
		key := item("PK", s(pk), "SK", s(sk))
		g, l := "", ""
		if rng.IntN(3) > 0 {
			g = fmt.Sprint("g", rng.IntN(3))
		}
		if rng.IntN(3) > 0 {
			l = fmt.Sprint(rng.IntN(5) - 2)
		}
		switch rng.IntN(4) {
		case 0, 1:
			it := item("PK", s(pk), "SK", s(sk), "v", n(fmt.Sprint(rng.IntN(100))))
			if g != "" {
				it["G"] = s(g)
			}
			if l != "" {
				it["L"] = n(l)
			}
			env.Put("tbl", it)
			model[[2]string{pk, sk}] = row{g, l}
		case 2:
			if _, err := env.client.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("tbl"), Key: key}); err != nil {
				t.Fatal(err)
			}
			delete(model, [2]string{pk, sk})
		case 3:
			upd, vals := "REMOVE G", map[string]types.AttributeValue(nil)
			if g != "" {
				upd, vals = "SET G = :g", item(":g", s(g))
			}
			if _, err := env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("tbl"), Key: key, UpdateExpression: aws.String(upd), ExpressionAttributeValues: vals}); err != nil {
				t.Fatal(err)
			}
			r, ok := model[[2]string{pk, sk}]
			if ok || g != "" {
				r.g = g
				model[[2]string{pk, sk}] = r
			}
		}
	}
	if err := checkInvariants(env.e); err != nil {
		t.Fatal(err)
	}
	query := func(in *dynamodb.QueryInput) []string {
		var out []string
		p := dynamodb.NewQueryPaginator(env.client, in)
		for p.HasMorePages() {
			pg, err := p.NextPage(env.ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range pg.Items {
				out = append(out, it["PK"].(*types.AttributeValueMemberS).Value+"/"+it["SK"].(*types.AttributeValueMemberS).Value)
			}
		}
		return out
	}
	for p := range 4 {
		pk := fmt.Sprint("p", p)
		var want []string
		for k := range model {
			if k[0] == pk {
				want = append(want, k[0]+"/"+k[1])
			}
		}
		sort.Strings(want)
		got := query(&dynamodb.QueryInput{TableName: aws.String("tbl"), Limit: aws.Int32(3), KeyConditionExpression: aws.String("PK = :p"), ExpressionAttributeValues: item(":p", s(pk))})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("partition %s: got %v, want %v", pk, got, want)
		}
	}
	for g := range 3 {
		gv := fmt.Sprint("g", g)
		var want []string
		for k, r := range model {
			if r.g == gv {
				want = append(want, k[1]+"\x00"+k[0])
			}
		}
		sort.Strings(want) // by SK, then table key
		for i, w := range want {
			sk, pk, _ := strings.Cut(w, "\x00")
			want[i] = pk + "/" + sk
		}
		got := query(&dynamodb.QueryInput{TableName: aws.String("tbl"), IndexName: aws.String("gsi"), Limit: aws.Int32(2), KeyConditionExpression: aws.String("G = :g"), ExpressionAttributeValues: item(":g", s(gv))})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("index partition %s: got %v, want %v", gv, got, want)
		}
	}
}
