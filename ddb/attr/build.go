package attr

// Decoding items into another representation than Value. The engine's
// in-process API answers with the AWS SDK's attribute values; building them
// straight from an item's stored form, instead of building Values and
// converting those, halves the work of a read (ddb's BenchmarkGetItemPaths).

// Builder makes the values of another representation V of attribute values.
// Decoding with it checks the syntax of the data, not the rules of
// DynamoDB's values: it is for items that were validated when stored.
type Builder[V any] interface {
	S(s string) V
	N(n string) V
	B(b []byte) V
	BOOL(b bool) V
	NULL() V
	SS(ss []string) V
	NS(ns []string) V
	BS(bs [][]byte) V
	L(l []V) V
	M(m map[string]V) V
}

// DecodeItemAs decodes a stored item (a JSON object of AttributeValues) into
// values built by b. JSON null decodes as a nil map.
func DecodeItemAs[V any](data []byte, b Builder[V]) (map[string]V, error) {
	var out map[string]V
	d := &decoder{data: data, text: string(data)}
	err := run(d, func() error {
		if d.literal("null") {
			return nil
		}
		out = buildMap(d, b)
		return nil
	})
	return out, err
}

// buildMap decodes an object of AttributeValues.
func buildMap[V any](d *decoder, b Builder[V]) map[string]V {
	m := map[string]V{}
	d.object(func(k string) { m[k] = buildValue(d, b) })
	return m
}

// buildValue decodes one AttributeValue: its one member of a known type (a
// stored value has exactly one).
func buildValue[V any](d *decoder, b Builder[V]) V {
	var v V
	found := false
	d.object(func(key string) {
		t := ParseType(key)
		if t == TypeNone || found {
			d.skip()
			return
		}
		found = true
		v = buildTyped(d, b, t)
	})
	if !found {
		d.fail("an AttributeValue without a type")
	}
	return v
}

// buildTyped decodes the JSON value of a member of type t.
func buildTyped[V any](d *decoder, b Builder[V], t Type) V {
	switch t {
	case TypeS:
		return b.S(d.string())
	case TypeN:
		return b.N(d.string())
	case TypeB:
		return b.B(d.base64())
	case TypeBOOL:
		return b.BOOL(d.bool())
	case TypeNULL:
		d.bool()
		return b.NULL()
	case TypeSS, TypeNS:
		ss := []string{}
		d.array(func() { ss = append(ss, d.string()) })
		if t == TypeSS {
			return b.SS(ss)
		}
		return b.NS(ss)
	case TypeBS:
		bs := [][]byte{}
		d.array(func() { bs = append(bs, d.base64()) })
		return b.BS(bs)
	case TypeL:
		l := []V{}
		d.array(func() { l = append(l, buildValue(d, b)) })
		return b.L(l)
	}
	return b.M(buildMap(d, b))
}

// ValueAs builds v in the representation b makes: the one conversion of
// decoded values, beside DecodeItemAs and DecodeBinaryAs for stored ones.
func ValueAs[V any](v Value, b Builder[V]) V {
	switch v.Type {
	case TypeS:
		return b.S(v.S)
	case TypeN:
		return b.N(v.NumText())
	case TypeB:
		return b.B(v.Bytes())
	case TypeBOOL:
		return b.BOOL(v.BOOL)
	case TypeNULL:
		return b.NULL()
	case TypeSS:
		return b.SS(v.SS())
	case TypeNS:
		return b.NS(v.NS())
	case TypeBS:
		return b.BS(v.BS())
	case TypeL:
		l := make([]V, len(v.List()))
		for i, e := range v.List() {
			l[i] = ValueAs(e, b)
		}
		return b.L(l)
	case TypeM:
		m := make(map[string]V, len(v.M))
		for k, e := range v.M {
			m[k] = ValueAs(e, b)
		}
		return b.M(m)
	}
	var zero V
	return zero
}
