package engine

// What Query and Scan share: their parameters, Select, the filter and
// projection, and the response built from a page (page.go).

import (
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/internal/storage"
)

// Values of Select.
const (
	selectAll       = "ALL_ATTRIBUTES"
	selectProjected = "ALL_PROJECTED_ATTRIBUTES"
	selectSpecific  = "SPECIFIC_ATTRIBUTES"
	selectCount     = "COUNT"
)

// ListParams are the parameters shared by Query and Scan.
type ListParams struct {
	ReadParams
	IndexName         string    `json:"IndexName"`
	FilterExpression  *string   `json:"FilterExpression"`
	Select            string    `json:"Select"`
	Limit             *int      `json:"Limit"`
	ExclusiveStartKey attr.Item `json:"ExclusiveStartKey"`
}

// compiled are the parsed expressions of a Query or Scan.
type compiled struct {
	filter      condition
	filterNames []string // top-level attributes the filter reads
	proj        projector
	projNames   []string // top-level attributes the projection selects
}

// checkList validates the parameters shared by Query and Scan (op names the
// operation) and parses the filter and projection expressions.
func (p *ListParams) checkList(op string, env *exprEnv) (*compiled, error) {
	v := p.ReadParams.shape()
	v.Enum("select", p.Select, "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES")
	if p.Limit != nil && *p.Limit < 1 && op == "Scan" {
		v.Add(quoted(strconv.Itoa(*p.Limit)), "limit", "Member must have value greater than or equal to 1")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	// Query checks its Limit past the model, in words of its own.
	if p.Limit != nil && *p.Limit < 1 {
		return nil, Validationf("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	}
	switch p.Select {
	case "", selectAll, selectCount:
		if p.Select != "" && p.ProjectionExpression != nil {
			return nil, Validationf("Cannot specify the ProjectionExpression when choosing to get %s", p.Select)
		}
	case selectProjected:
		if p.IndexName == "" {
			return nil, Validationf("One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is not valid when IndexName is not specified")
		}
		if p.ProjectionExpression != nil {
			return nil, Validationf("Cannot specify the ProjectionExpression when choosing to get %s", p.Select)
		}
	case selectSpecific:
		if p.ProjectionExpression == nil {
			return nil, Validationf("Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
		}
	}
	var c compiled
	var err error
	if c.filter, c.filterNames, err = env.filter(p.FilterExpression); err != nil {
		return nil, err
	}
	if c.proj, c.projNames, err = env.projectionNames(p.ProjectionExpression); err != nil {
		return nil, err
	}
	return &c, nil
}

// openListSource opens the table or index a Query or Scan reads, and checks
// Select and the projection against it.
func (e *Engine) openListSource(tx *bolt.Tx, p *ListParams, c *compiled) (*source, error) {
	t, err := e.OpenTable(tx, p.TableName)
	if err != nil {
		return nil, err
	}
	s, err := openSource(t, p.IndexName, p.ConsistentRead)
	if err != nil {
		return nil, err
	}
	if err := p.checkSelect(s, c); err != nil {
		return nil, err
	}
	return s, nil
}

// checkSelect refuses, on a global index that does not project every
// attribute, Select ALL_ATTRIBUTES and projections of attributes it does
// not hold.
func (p *ListParams) checkSelect(s *source, c *compiled) error {
	if s.ix == nil || !s.ix.Global || s.ix.Projection.ProjectionType == storage.ProjectionAll {
		return nil
	}
	if p.Select == selectAll {
		return invalidParamf("Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", s.ix.Name)
	}
	held := map[string]bool{}
	for _, n := range s.KeyNames() {
		held[n] = true
	}
	for _, n := range s.ix.Projection.NonKeyAttributes {
		held[n] = true
	}
	var missing []string
	for _, n := range c.projNames {
		if !held[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return invalidParamf("Global secondary index %s does not project [%s]", s.ix.Name, strings.Join(missing, ", "))
	}
	return nil
}

// limit returns the Limit, 0 for none.
func (p *ListParams) limit() int {
	if p.Limit == nil {
		return 0
	}
	return *p.Limit
}

// fetchesBase reports whether respond replaces each item read from a local
// index by the table's item, for attributes the index does not project.
func (s *source) fetchesBase(p *ListParams, c *compiled) bool {
	return s.ix != nil && !s.ix.Global && s.ix.Projection.ProjectionType != storage.ProjectionAll && (p.Select == selectAll || c.proj != nil)
}

// rawOnly reports whether respond needs only the stored bytes of the items
// read (no filter, no projection, no fetch from the table), so read can skip
// decoding them.
func (s *source) rawOnly(p *ListParams, c *compiled) bool {
	return c.filter == nil && c.proj == nil && !s.fetchesBase(p, c)
}

// respond builds a Query or Scan response from a page: filter, projection,
// Select, counts, LastEvaluatedKey and consumed capacity.
func (s *source) respond(p *ListParams, c *compiled, pg *page) (*ListOutput, error) {
	items := []ResultItem{}
	for i, it := range pg.items {
		if ok, err := evalCondition(c.filter, it); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		raw := pg.raws[i]
		if s.fetchesBase(p, c) {
			// Local index: attributes not projected are fetched from the table.
			base, err := s.t.GetRaw(s.t.M.TableKeyBytes(it))
			if err != nil {
				return nil, err
			}
			if base != nil {
				it, raw = base, nil
			}
		}
		items = append(items, readItem(c.proj, it, raw))
	}
	out := &ListOutput{Count: len(items), Scanned: len(pg.items), LastKey: pg.lastKey}
	if p.Select != selectCount {
		out.Items = items
	}
	cp := newCapacity(s.t.M)
	u := ReadUnits(pg.bytes, p.ConsistentRead)
	if s.ix == nil {
		cp.Units = u
	} else {
		cp.addIndex(s.ix.Name, u)
	}
	out.Capacity = ConsumedCapacity{C: cp, Mode: p.ReturnConsumedCapacity}
	return out, nil
}
