package attr

import (
	"encoding/binary"
	"errors"
	"slices"
	"unsafe"
)

// The binary codec: the compact form in which the engine stores items
// (about two thirds of their DynamoDB JSON). An encoded item is
//
//	uvarint(size) attribute*
//	attribute = uvarint(len(name)) name value
//
// with the attributes in name order (byte order, as AppendItemJSON sorts
// them), and size the item's Size as the writer gave it, so a reader knows
// it without walking the item. A value is a tag byte, then:
//
//	S, N, B      uvarint(len) bytes (N: the canonical number text)
//	BOOL, NULL   nothing: the tag says false, true or NULL
//	SS, NS, BS   uvarint(count), then each element as uvarint(len) bytes
//	L            uvarint(count) value*
//	M            uvarint(count) (uvarint(len(name)) name value)*, names in order
//
// An encoded item may leave out attributes (AppendBinary's omit): the
// engine keeps key attributes in the bbolt key, not twice. Readers then
// supply them again (DecodeBinary's into, AppendBinaryJSON's extra).

// Tags of the binary codec, one per type (two for BOOL).
const (
	binS byte = iota + 1
	binN
	binB
	binFalse
	binTrue
	binNULL
	binSS
	binNS
	binBS
	binL
	binM
)

// ErrBadBinary is returned for bytes that are not an item in the binary
// codec.
var ErrBadBinary = errors.New("attr: malformed binary item")

// AppendBinary appends the binary encoding of it, without the attributes
// named in omit, recording size (normally Size(it)) in front.
func AppendBinary(dst []byte, it Item, size int, omit ...string) []byte {
	dst = binary.AppendUvarint(dst, uint64(size))
	// Most items have a few dozen attributes at most: sort their names on
	// the stack.
	var buf [32]string
	names := buf[:0]
	for k := range it {
		if !slices.Contains(omit, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		dst = appendBinString(dst, k)
		dst = appendBinValue(dst, it[k])
	}
	return dst
}

// appendBinString appends uvarint(len(s)) s.
func appendBinString[T string | []byte](dst []byte, s T) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// appendBinValue appends one tagged value.
func appendBinValue(dst []byte, v Value) []byte {
	switch v.Type {
	case TypeS:
		return appendBinString(append(dst, binS), v.S)
	case TypeN:
		return appendBinString(append(dst, binN), v.NumText())
	case TypeB:
		return appendBinString(append(dst, binB), v.Bytes())
	case TypeBOOL:
		if v.BOOL {
			return append(dst, binTrue)
		}
		return append(dst, binFalse)
	case TypeNULL:
		return append(dst, binNULL)
	case TypeSS:
		return appendBinSet(append(dst, binSS), v.SS())
	case TypeNS:
		return appendBinSet(append(dst, binNS), v.NS())
	case TypeBS:
		return appendBinSet(append(dst, binBS), v.BS())
	case TypeL:
		dst = binary.AppendUvarint(append(dst, binL), uint64(len(v.List())))
		for _, e := range v.List() {
			dst = appendBinValue(dst, e)
		}
		return dst
	case TypeM:
		dst = binary.AppendUvarint(append(dst, binM), uint64(len(v.M)))
		names := make([]string, 0, len(v.M))
		for k := range v.M {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			dst = appendBinString(dst, k)
			dst = appendBinValue(dst, v.M[k])
		}
		return dst
	}
	panic("attr.AppendBinary: a value without a type")
}

// appendBinSet appends uvarint(count) and the elements of a set.
func appendBinSet[E string | []byte](dst []byte, set []E) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(set)))
	for _, e := range set {
		dst = appendBinString(dst, e)
	}
	return dst
}

// binReader reads the binary codec; the first malformation sets bad and
// makes every later read return zero values, so callers check once.
type binReader struct {
	data []byte
	pos  int
	bad  bool
	// text, when set, holds a copy of data as one string: str then cuts
	// names and values out of it instead of allocating each (DecodeBinaryAs).
	text string
}

// uvarint reads one uvarint. Most are lengths under 128, one byte: read
// here, they skip binary.Uvarint's call and loop.
func (r *binReader) uvarint() int {
	if r.pos < len(r.data) && r.data[r.pos] < 0x80 {
		r.pos++
		return int(r.data[r.pos-1])
	}
	v, n := binary.Uvarint(r.data[r.pos:])
	if n <= 0 || v > 1<<31 {
		r.bad = true
		r.pos = len(r.data)
		return 0
	}
	r.pos += n
	return int(v)
}

// count reads an element count, which cannot exceed the bytes left (each
// element takes at least one).
func (r *binReader) count() int {
	n := r.uvarint()
	if n > len(r.data)-r.pos {
		r.bad = true
		r.pos = len(r.data)
		return 0
	}
	return n
}

// bytes reads uvarint(len) bytes, returning them without copying.
func (r *binReader) bytes() []byte {
	n := r.uvarint()
	if n > len(r.data)-r.pos {
		r.bad = true
		r.pos = len(r.data)
		return nil
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b
}

// str reads uvarint(len) bytes as a string: a substring of text when the
// reader has one, else a copy.
func (r *binReader) str() string {
	b := r.bytes()
	if r.text != "" {
		return r.text[r.pos-len(b) : r.pos]
	}
	return string(b)
}

// tag reads a value's tag byte.
func (r *binReader) tag() byte {
	if r.pos >= len(r.data) {
		r.bad = true
		return 0
	}
	t := r.data[r.pos]
	r.pos++
	return t
}

// BinarySize returns the size recorded in front of a binary item.
func BinarySize(data []byte) (int, error) {
	r := binReader{data: data}
	size := r.uvarint()
	if r.bad {
		return 0, ErrBadBinary
	}
	return size, nil
}

// DecodeBinary decodes the binary item data, adding its attributes to into
// (which may already hold the attributes the encoding left out). It
// returns the size recorded in front.
func DecodeBinary(data []byte, into Item) (int, error) {
	return decodeBinary(binReader{data: data}, into)
}

// DecodeBinaryText is DecodeBinary on binary item data held in a string:
// the names and the string and number values it decodes are cut from text
// rather than each copied out, so a decoded item costs one allocation for
// all its strings, its own copy of the stored bytes.
func DecodeBinaryText(text string, into Item) (int, error) {
	// The reader only reads its bytes, which text's immutability covers.
	return decodeBinary(binReader{data: unsafe.Slice(unsafe.StringData(text), len(text)), text: text}, into)
}

func decodeBinary(r binReader, into Item) (int, error) {
	size := r.uvarint()
	for r.pos < len(r.data) && !r.bad {
		name := r.str()
		into[name] = r.value()
	}
	if r.bad {
		return 0, ErrBadBinary
	}
	return size, nil
}

// value decodes one tagged value.
func (r *binReader) value() Value {
	switch t := r.tag(); t {
	case binS:
		return S(r.str())
	case binN:
		return N(r.str())
	case binB:
		return B(append([]byte{}, r.bytes()...))
	case binFalse, binTrue:
		return Bool(t == binTrue)
	case binNULL:
		return Null()
	case binSS, binNS:
		set := make([]string, r.count())
		for i := range set {
			set[i] = r.str()
		}
		if t == binSS {
			return SS(set...)
		}
		return NS(set...)
	case binBS:
		set := make([][]byte, r.count())
		for i := range set {
			set[i] = append([]byte{}, r.bytes()...)
		}
		return BS(set...)
	case binL:
		l := make([]Value, r.count())
		for i := range l {
			l[i] = r.value()
		}
		return L(l...)
	case binM:
		n := r.count()
		m := make(map[string]Value, n)
		for range n {
			name := r.str()
			m[name] = r.value()
		}
		return M(m)
	}
	r.bad = true
	return Value{}
}

// NamedValue is one attribute: a name and its value.
type NamedValue struct {
	Name  string
	Value Value
}

// AppendBinaryJSON appends what AppendItemJSON gives for the item made of
// the binary item data and the attributes extra (which data left out;
// sorted by name). It returns the size recorded in data.
func AppendBinaryJSON(dst, data []byte, extra []NamedValue) ([]byte, int, error) {
	r := binReader{data: data}
	size := r.uvarint()
	dst = append(dst, '{')
	first := true
	sep := func() {
		if !first {
			dst = append(dst, ',')
		}
		first = false
	}
	for r.pos < len(r.data) && !r.bad {
		name := r.bytes()
		for len(extra) > 0 && extra[0].Name < bytesString(name) {
			sep()
			dst = appendString(dst, extra[0].Name)
			dst = append(dst, ':')
			dst = AppendJSON(dst, extra[0].Value)
			extra = extra[1:]
		}
		sep()
		dst = appendString(dst, bytesString(name))
		dst = append(dst, ':')
		dst = r.appendJSON(dst)
	}
	for _, e := range extra {
		sep()
		dst = appendString(dst, e.Name)
		dst = append(dst, ':')
		dst = AppendJSON(dst, e.Value)
	}
	if r.bad {
		return nil, 0, ErrBadBinary
	}
	return append(dst, '}'), size, nil
}

// appendJSON appends the JSON wire encoding of one tagged value, as
// AppendJSON writes it.
func (r *binReader) appendJSON(dst []byte) []byte {
	t := r.tag()
	switch t {
	case binS:
		return append(appendString(append(dst, `{"S":`...), bytesString(r.bytes())), '}')
	case binN:
		return append(appendString(append(dst, `{"N":`...), bytesString(r.bytes())), '}')
	case binB:
		return append(appendBase64(append(dst, `{"B":`...), r.bytes()), '}')
	case binFalse:
		return append(dst, `{"BOOL":false}`...)
	case binTrue:
		return append(dst, `{"BOOL":true}`...)
	case binNULL:
		return append(dst, `{"NULL":true}`...)
	case binSS, binNS, binBS:
		dst = append(dst, `{"`...)
		dst = append(dst, [...]string{binSS: "SS", binNS: "NS", binBS: "BS"}[t]...)
		dst = append(dst, `":[`...)
		for i := range r.count() {
			if i > 0 {
				dst = append(dst, ',')
			}
			if t == binBS {
				dst = appendBase64(dst, r.bytes())
			} else {
				dst = appendString(dst, bytesString(r.bytes()))
			}
		}
		return append(dst, "]}"...)
	case binL:
		dst = append(dst, `{"L":[`...)
		for i := range r.count() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = r.appendJSON(dst)
		}
		return append(dst, "]}"...)
	case binM:
		dst = append(dst, `{"M":{`...)
		for i := range r.count() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, bytesString(r.bytes()))
			dst = append(dst, ':')
			dst = r.appendJSON(dst)
		}
		return append(dst, "}}"...)
	}
	r.bad = true
	return dst
}

// bytesString views b as a string without copying, for reading only while
// b is unchanged (within one call here).
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// BinaryAttribute returns the top-level attribute name of the binary item
// data, without decoding the others: a reader that needs one attribute (the
// TTL check of every read) skips the rest. found is false when data does
// not hold it (it may be one the encoding left out).
func BinaryAttribute(data []byte, name string) (v Value, found bool, err error) {
	r := binReader{data: data}
	r.uvarint()
	for r.pos < len(r.data) && !r.bad {
		switch n := bytesString(r.bytes()); {
		case n == name:
			v = r.value()
			if r.bad {
				return Value{}, false, ErrBadBinary
			}
			return v, true, nil
		case n > name:
			// Attributes are in name order: name is not further on.
			return Value{}, false, nil
		}
		r.skip()
	}
	if r.bad {
		return Value{}, false, ErrBadBinary
	}
	return Value{}, false, nil
}

// BinaryLen returns how many attributes the binary item data holds at its
// top level, 0 if it is malformed (which decoding it then reports). A
// decoder that knows the count makes its map the right size at once: an
// item of more than eight attributes otherwise outgrows the map's first
// group of eight slots and moves into a table of groups, the group
// allocated and filled for nothing.
func BinaryLen(data []byte) int {
	r := binReader{data: data}
	r.uvarint()
	n := 0
	for r.pos < len(r.data) && !r.bad {
		r.bytes()
		r.skip()
		n++
	}
	if r.bad {
		return 0
	}
	return n
}

// skip passes over one tagged value.
func (r *binReader) skip() {
	switch t := r.tag(); t {
	case binS, binN, binB:
		r.bytes()
	case binFalse, binTrue, binNULL:
	case binSS, binNS, binBS:
		for n := r.count(); n > 0 && !r.bad; n-- {
			r.bytes()
		}
	case binL:
		for n := r.count(); n > 0 && !r.bad; n-- {
			r.skip()
		}
	case binM:
		for n := r.count(); n > 0 && !r.bad; n-- {
			r.bytes()
			r.skip()
		}
	default:
		r.bad = true
	}
}

// DecodeBinaryAs decodes the binary item data into values built by b, as
// DecodeItemAs does for the JSON form: the in-process API builds the SDK's
// values straight from the stored bytes. The attributes the encoding left
// out are the caller's to add.
//
// The names and the string and number values are substrings of one copy of
// data: one allocation instead of one per string (about a third of an
// in-process GetItem's). A string kept from the result keeps that copy,
// the size of the one item, alive.
func DecodeBinaryAs[V any](data []byte, b Builder[V]) (map[string]V, error) {
	return DecodeBinaryTextAs(string(data), b)
}

// DecodeBinaryTextAs is DecodeBinaryAs on binary item data held in a
// string, whose names and values it cuts from text without copying it.
func DecodeBinaryTextAs[V any](text string, b Builder[V]) (map[string]V, error) {
	// The reader only reads its bytes, which text's immutability covers.
	r := binReader{data: unsafe.Slice(unsafe.StringData(text), len(text)), text: text}
	r.uvarint()
	// The attributes are decoded into a list on the stack first, so that
	// the map is made at its size in the same pass: with room for the
	// attributes the encoding left out too, the item's keys, one or two.
	type attribute struct {
		name string
		v    V
	}
	var first [16]attribute
	attrs := first[:0]
	for r.pos < len(r.data) && !r.bad {
		name := r.str()
		attrs = append(attrs, attribute{name, buildBinary(&r, b)})
	}
	if r.bad {
		return nil, ErrBadBinary
	}
	m := make(map[string]V, len(attrs)+2)
	for _, a := range attrs {
		m[a.name] = a.v
	}
	return m, nil
}

// buildBinary decodes one tagged value with b.
func buildBinary[V any](r *binReader, b Builder[V]) V {
	switch t := r.tag(); t {
	case binS:
		return b.S(r.str())
	case binN:
		return b.N(r.str())
	case binB:
		return b.B(append([]byte{}, r.bytes()...))
	case binFalse, binTrue:
		return b.BOOL(t == binTrue)
	case binNULL:
		return b.NULL()
	case binSS, binNS:
		set := make([]string, r.count())
		for i := range set {
			set[i] = r.str()
		}
		if t == binSS {
			return b.SS(set)
		}
		return b.NS(set)
	case binBS:
		set := make([][]byte, r.count())
		for i := range set {
			set[i] = append([]byte{}, r.bytes()...)
		}
		return b.BS(set)
	case binL:
		l := make([]V, r.count())
		for i := range l {
			l[i] = buildBinary(r, b)
		}
		return b.L(l)
	case binM:
		n := r.count()
		m := make(map[string]V, n)
		for range n {
			name := r.str()
			m[name] = buildBinary(r, b)
		}
		return b.M(m)
	}
	r.bad = true
	var zero V
	return zero
}
