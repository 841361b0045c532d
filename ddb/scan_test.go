package ddb

import (
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestScan(t *testing.T) {
	env := mustOpen(t)
	env.CreateTable("tbl", true, gsi("gsi", "G", ""))
	for i := range 30 {
		it := item("PK", s(fmt.Sprintf("p%02d", i%7)), "SK", s(fmt.Sprintf("s%02d", i)), "i", n(fmt.Sprint(i)))
		if i%3 == 0 {
			it["G"] = s("g")
		}
		env.Put("tbl", it)
	}
	count := func(in *dynamodb.ScanInput) (items, pages int) {
		t.Helper()
		p := dynamodb.NewScanPaginator(env.client, in)
		for p.HasMorePages() {
			pg, err := p.NextPage(env.ctx)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			items += len(pg.Items)
		}
		return
	}
	tests := []struct {
		name  string
		in    dynamodb.ScanInput
		items int
		pages int
	}{
		{name: "OKAll", in: dynamodb.ScanInput{}, items: 30, pages: 1},
		{name: "OKLimit", in: dynamodb.ScanInput{Limit: aws.Int32(10)}, items: 30, pages: 4},
		{name: "OKFilter", in: dynamodb.ScanInput{FilterExpression: aws.String("i < :n"), ExpressionAttributeValues: item(":n", n("5"))}, items: 5, pages: 1},
		{name: "OKIndex", in: dynamodb.ScanInput{IndexName: aws.String("gsi")}, items: 10, pages: 1},
		{name: "OKIndexLimit", in: dynamodb.ScanInput{IndexName: aws.String("gsi"), Limit: aws.Int32(3)}, items: 10, pages: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.TableName = aws.String("tbl")
			items, pages := count(&in)
			if items != tt.items || pages != tt.pages {
				t.Errorf("items %d pages %d, want %d %d", items, pages, tt.items, tt.pages)
			}
		})
	}
	t.Run("OKSegments", func(t *testing.T) {
		total := 0
		for seg := range 4 {
			items, _ := count(&dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(int32(seg)), TotalSegments: aws.Int32(4), Limit: aws.Int32(3)})
			total += items
		}
		if total != 30 {
			t.Errorf("segments hold %d items", total)
		}
	})
	t.Run("ErrSegmentTooLarge", func(t *testing.T) {
		_, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(4), TotalSegments: aws.Int32(4)})
		wantErr(t, err, "ValidationException", "")
	})
	t.Run("ErrSegmentAlone", func(t *testing.T) {
		_, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Segment: aws.Int32(0)})
		wantErr(t, err, "ValidationException", "The TotalSegments parameter is required but was not present in the request when Segment parameter is present")
	})
	t.Run("Count", func(t *testing.T) {
		out, err := env.client.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("tbl"), Select: types.SelectCount, ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes})
		if err != nil {
			t.Fatal(err)
		}
		if out.Count != 30 || out.ScannedCount != 30 || out.Items != nil {
			t.Errorf("count %d", out.Count)
		}
		if *out.ConsumedCapacity.CapacityUnits != 0.5 || *out.ConsumedCapacity.Table.CapacityUnits != 0.5 {
			t.Errorf("capacity %+v", out.ConsumedCapacity)
		}
	})
}
