package attr

// Item size, following "DynamoDB item sizes and formats" in the DynamoDB
// Developer Guide: an item's size is the sum over its attributes of the
// UTF-8 length of the name plus the size of the value, where
//
//   - S is its UTF-8 length and B its raw byte length;
//   - N is 1 byte per two significant digits plus 1 byte (zero counts as one
//     digit);
//   - BOOL and NULL are 1 byte;
//   - SS, NS and BS are the sum of their elements' sizes;
//   - L and M are 3 bytes plus, per element, 1 byte plus its size (and for M
//     the length of the element's key).

// Size limits and capacity-unit sizes, in bytes.
const (
	MaxItemSize = 400 * 1024
	ReadUnit    = 4 * 1024
	WriteUnit   = 1024
)

// Size returns the DynamoDB size of it in bytes.
func Size(it Item) int {
	n := 0
	for k, v := range it {
		n += len(k) + ValueSize(v)
	}
	return n
}

// ValueSize returns the DynamoDB size of one value, without a name.
func ValueSize(v Value) int {
	switch v.Type {
	case TypeS:
		return len(v.S)
	case TypeN:
		return numberSize(v.NumText())
	case TypeB:
		return len(v.Bytes())
	case TypeBOOL, TypeNULL:
		return 1
	case TypeSS:
		return totalLen(v.SS())
	case TypeNS:
		n := 0
		for _, s := range v.NS() {
			n += numberSize(s)
		}
		return n
	case TypeBS:
		return totalLen(v.BS())
	case TypeL:
		n := 3
		for _, e := range v.List() {
			n += 1 + ValueSize(e)
		}
		return n
	case TypeM:
		n := 3
		for k, e := range v.M {
			n += 1 + len(k) + ValueSize(e)
		}
		return n
	}
	return 0
}

// totalLen returns the summed byte lengths of the elements of a string or
// binary set.
func totalLen[E string | []byte](set []E) int {
	n := 0
	for _, e := range set {
		n += len(e)
	}
	return n
}

func numberSize(s string) int {
	d, _ := parseDecimal(s)
	digits := max(d.Digits(), 1)
	return (digits+1)/2 + 1
}

// ReadUnits returns the read capacity units for reading size bytes with
// strong consistency: one unit per 4 KB or part, at least one.
func ReadUnits(size int) int { return max(1, (size+ReadUnit-1)/ReadUnit) }

// WriteUnits returns the write capacity units for writing size bytes: one
// unit per 1 KB or part, at least one.
func WriteUnits(size int) int { return max(1, (size+WriteUnit-1)/WriteUnit) }
