package ddb

import (
	"fmt"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/internal/engine"
	"github.com/quickphotos/quickphotos/ddb/internal/wire"
)

// BenchmarkExecuteStatement runs ExecuteStatement as the JSON protocol does
// (the request decoded, the statement run, the response encoded), for a
// SELECT of one item by key (a GetItem), a SELECT of a partition (a Query
// of ten items) and an UPDATE (an UpdateItem).
//
//	go test ./ddb/ -run '^$' -bench BenchmarkExecuteStatement -benchmem
func BenchmarkExecuteStatement(b *testing.B) {
	e, _ := openPhotosTable(b, nil)
	for i := range 10 {
		body := fmt.Sprintf(`{"Statement":"INSERT INTO \"photos\" VALUE {'PK': 'p', 'SK': '%02d', 'v': %d, 'name': 'item %d'}"}`, i, i, i)
		if _, err := wire.OpExecuteStatement(e.core, b.Context(), []byte(body)); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct{ name, body string }{
		{"getitem", `{"Statement":"SELECT * FROM \"photos\" WHERE PK = 'p' AND SK = '03'"}`},
		{"query", `{"Statement":"SELECT * FROM \"photos\" WHERE PK = ?","Parameters":[{"S":"p"}]}`},
		{"update", `{"Statement":"UPDATE \"photos\" SET v = v + ? WHERE PK = 'p' AND SK = '05'","Parameters":[{"N":"1"}]}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			body := []byte(c.body)
			var buf []byte
			for b.Loop() {
				resp, err := wire.OpExecuteStatement(e.core, b.Context(), body)
				if err != nil {
					b.Fatal(err)
				}
				if buf, err = engine.AppendResponse(buf[:0], resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
