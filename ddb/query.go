package ddb

import (
	"bytes"
	"context"
	"strconv"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
	"github.com/quickphotos/quickphotos/ddb/expr"
	bolt "go.etcd.io/bbolt"
)

// Values of Select.
const (
	selectAll       = "ALL_ATTRIBUTES"
	selectProjected = "ALL_PROJECTED_ATTRIBUTES"
	selectSpecific  = "SPECIFIC_ATTRIBUTES"
	selectCount     = "COUNT"
)

// listParams are the parameters shared by Query and Scan.
type listParams struct {
	readParams
	IndexName         string    `json:"IndexName"`
	FilterExpression  *string   `json:"FilterExpression"`
	Select            string    `json:"Select"`
	Limit             *int      `json:"Limit"`
	ExclusiveStartKey attr.Item `json:"ExclusiveStartKey"`
}

// queryInput is the Query request.
type queryInput struct {
	listParams
	KeyConditionExpression *string `json:"KeyConditionExpression"`
	ScanIndexForward       *bool   `json:"ScanIndexForward"`
}

// compiled are the parsed expressions of a Query or Scan.
type compiled struct {
	filter      condition
	filterNames []string // top-level attributes the filter reads
	proj        projector
	projNames   []string // top-level attributes the projection selects
}

// checkList validates the parameters shared by Query and Scan (decoded
// from body; op names the operation) and parses the filter and projection
// expressions.
func (p *listParams) checkList(op string, body []byte, env *exprEnv) (*compiled, error) {
	v := p.readParams.shape(body)
	v.enum("select", p.Select, "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES")
	if p.Limit != nil && *p.Limit < 1 && op == "Scan" {
		v.add(quoted(strconv.Itoa(*p.Limit)), "limit", "Member must have value greater than or equal to 1")
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	// Query checks its Limit past the model, in words of its own.
	if p.Limit != nil && *p.Limit < 1 {
		return nil, validationf("1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
	}
	switch p.Select {
	case "", selectAll, selectCount:
		if p.Select != "" && p.ProjectionExpression != nil {
			return nil, validationf("Cannot specify the ProjectionExpression when choosing to get %s", p.Select)
		}
	case selectProjected:
		if p.IndexName == "" {
			return nil, validationf("One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is not valid when IndexName is not specified")
		}
		if p.ProjectionExpression != nil {
			return nil, validationf("Cannot specify the ProjectionExpression when choosing to get %s", p.Select)
		}
	case selectSpecific:
		if p.ProjectionExpression == nil {
			return nil, validationf("Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES")
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
func (e *Engine) openListSource(tx *bolt.Tx, p *listParams, c *compiled) (*source, error) {
	t, err := e.openTable(tx, p.TableName)
	if err != nil {
		return nil, err
	}
	s, err := t.openSource(p.IndexName, p.ConsistentRead)
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
func (p *listParams) checkSelect(s *source, c *compiled) error {
	if s.ix == nil || !s.ix.Global || s.ix.Projection.ProjectionType == projectionAll {
		return nil
	}
	if p.Select == selectAll {
		return invalidParamf("Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL", s.ix.Name)
	}
	held := map[string]bool{}
	for _, n := range s.keyNames() {
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

// checkFilterKeys refuses a Query filter on the queried key attributes.
func checkFilterKeys(ks []keySchemaElement, c *compiled) error {
	for _, k := range ks {
		for _, n := range c.filterNames {
			if n == k.AttributeName {
				return validationf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s", n)
			}
		}
	}
	return nil
}

// limit returns the Limit, 0 for none.
func (p *listParams) limit() int {
	if p.Limit == nil {
		return 0
	}
	return *p.Limit
}

// opQuery reads the items of one partition of the table or an index.
func opQuery(e *Engine, _ context.Context, body []byte) (any, error) {
	var in queryInput
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := in.legacyParams.translate(&in.exprParams, exprSlots{projection: &in.ProjectionExpression, filter: &in.FilterExpression, keyCondition: &in.KeyConditionExpression}); err != nil {
		return nil, err
	}
	env := in.env()
	c, err := in.checkList("Query", body, env)
	if err != nil {
		return nil, err
	}
	if in.KeyConditionExpression == nil {
		return nil, validationf("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.")
	}
	var out map[string]any
	err = e.view(func(tx *bolt.Tx) error {
		s, err := e.openListSource(tx, &in.listParams, c)
		if err != nil {
			return err
		}
		t := s.t
		ks := t.m.KeySchema
		if s.ix != nil {
			ks = s.ix.KeySchema
		}
		if err := checkFilterKeys(ks, c); err != nil {
			return err
		}
		kc, err := env.keyCondition(*in.KeyConditionExpression, t.m, ks)
		if err != nil {
			return err
		}
		if err := env.check(); err != nil {
			return err
		}
		lo, hi, err := keyRange(kc)
		if err != nil {
			return err
		}
		start, err := s.startKey(in.ExclusiveStartKey)
		if err != nil {
			return err
		}
		if start != nil && (bytes.Compare(start, lo) < 0 || hi != nil && bytes.Compare(start, hi) >= 0) {
			return validationf("The provided starting key does not match the range key predicate")
		}
		forward := in.ScanIndexForward == nil || *in.ScanIndexForward
		pg, err := s.read(pageSpec{lo: lo, hi: hi, forward: forward, start: start, limit: in.limit(), rawOnly: s.rawOnly(&in.listParams, c)})
		if err != nil {
			return err
		}
		out, err = s.respond(&in.listParams, c, pg)
		return err
	})
	return out, err
}

// keyRange turns a bound key condition into the byte range of entries it
// selects: entries of one partition share the prefix of its encoded
// partition key and are ordered by sort key.
func keyRange(kc *expr.KeyRange) (lo, hi []byte, err error) {
	prefix := attr.AppendKey(nil, kc.Partition)
	sc := kc.Sort
	if sc == nil {
		return prefix, prefixEnd(prefix), nil
	}
	at := func(v attr.Value) []byte { return attr.AppendKey(append([]byte(nil), prefix...), v) }
	switch sc.Op {
	case expr.SortEQ:
		k := at(sc.Value)
		return k, prefixEnd(k), nil
	case expr.SortLT:
		return prefix, at(sc.Value), nil
	case expr.SortLE:
		return prefix, prefixEnd(at(sc.Value)), nil
	case expr.SortGT:
		return prefixEnd(at(sc.Value)), prefixEnd(prefix), nil
	case expr.SortGE:
		return at(sc.Value), prefixEnd(prefix), nil
	case expr.SortBetween:
		if attr.Compare(sc.Value, sc.Hi) > 0 {
			return nil, nil, validationf("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: %s, upper bound operand: AttributeValue: %s", valueText(sc.Value), valueText(sc.Hi))
		}
		return at(sc.Value), prefixEnd(at(sc.Hi)), nil
	case expr.SortBeginsWith:
		k := at(sc.Value)
		k = k[:len(k)-2] // drop the S/B terminator: a prefix of every extension
		return k, prefixEnd(k), nil
	}
	return nil, nil, validationf("Invalid KeyConditionExpression: unsupported sort key condition")
}

// valueText renders a value as DynamoDB's messages do: {S:x}.
func valueText(v attr.Value) string {
	switch v.Type {
	case attr.TypeS:
		return "{S:" + v.S + ",}"
	case attr.TypeN:
		return "{N:" + v.N + ",}"
	}
	return "{" + v.Type.String() + ":…}"
}

// fetchesBase reports whether respond replaces each item read from a local
// index by the table's item, for attributes the index does not project.
func (s *source) fetchesBase(p *listParams, c *compiled) bool {
	return s.ix != nil && !s.ix.Global && s.ix.Projection.ProjectionType != projectionAll && (p.Select == selectAll || c.proj != nil)
}

// rawOnly reports whether respond needs only the stored bytes of the items
// read (no filter, no projection, no fetch from the table), so read can skip
// decoding them.
func (s *source) rawOnly(p *listParams, c *compiled) bool {
	return c.filter == nil && c.proj == nil && !s.fetchesBase(p, c)
}

// respond builds a Query or Scan response from a page: filter, projection,
// Select, counts, LastEvaluatedKey and consumed capacity.
func (s *source) respond(p *listParams, c *compiled, pg *page) (map[string]any, error) {
	items := []any{}
	for i, it := range pg.items {
		if ok, err := evalCondition(c.filter, it); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		raw := pg.raws[i]
		if s.fetchesBase(p, c) {
			// Local index: attributes not projected are fetched from the table.
			base, baseRaw, err := s.t.getStored(s.t.m.tableKeyBytes(it))
			if err != nil {
				return nil, err
			}
			if base != nil {
				it, raw = base, baseRaw
			}
		}
		items = append(items, projectedOrRaw(c.proj, it, raw))
	}
	out := map[string]any{"Count": len(items), "ScannedCount": len(pg.items)}
	if p.Select != selectCount {
		out["Items"] = items
	}
	if pg.lastKey != nil {
		out["LastEvaluatedKey"] = pg.lastKey
	}
	cp := newCapacity(s.t.m)
	u := readUnits(pg.bytes, p.ConsistentRead)
	if s.ix == nil {
		cp.units = u
	} else {
		cp.addIndex(s.ix.Name, u)
	}
	if cc := cp.render(p.ReturnConsumedCapacity); cc != nil {
		out["ConsumedCapacity"] = cc
	}
	return out, nil
}
