package attr_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func randNumber(r *rand.Rand) attr.Value {
	n := 1 + r.IntN(attr.MaxDigits)
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	for i := range n {
		c := byte('0' + r.IntN(10))
		if r.IntN(3) == 0 {
			c = '0' // many zeros exercise normalization
		}
		if i == 0 && r.IntN(4) == 0 {
			c = '9'
		}
		b.WriteByte(c)
	}
	exp := r.IntN(40) - 20
	if r.IntN(10) == 0 {
		exp = r.IntN(240) - 125
	}
	b.WriteString("e" + strconv.Itoa(exp))
	v, err := attr.ParseN(b.String())
	if err != nil {
		return attr.Int(int64(r.IntN(100) - 50))
	}
	return v
}

func randBytes(r *rand.Rand) []byte {
	alphabet := []byte{0x00, 0x01, 0xFF, 'a', 'b', '#'}
	b := make([]byte, r.IntN(6))
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return b
}

func randKey(r *rand.Rand, t attr.Type) attr.Value {
	switch t {
	case attr.TypeS:
		return attr.S(string(randBytes(r)))
	case attr.TypeB:
		return attr.B(randBytes(r))
	}
	return randNumber(r)
}

func sign(i int) int {
	switch {
	case i < 0:
		return -1
	case i > 0:
		return 1
	}
	return 0
}

// TestAppendKey_OrderMatchesCompare is a property test: for random pairs of
// key values, the byte order of their encodings equals Compare, encodings of
// (pk, sk) pairs sort by pk then sk, and DecodeKey inverts AppendKey.
func TestAppendKey_OrderMatchesCompare(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := testingSeed(); s != 0 {
		seed = s
	}
	t.Logf("seed %d (rerun with ATTR_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for _, typ := range []attr.Type{attr.TypeS, attr.TypeN, attr.TypeB} {
		for range 20000 {
			a, b := randKey(r, typ), randKey(r, typ)
			ka, kb := attr.AppendKey(nil, a), attr.AppendKey(nil, b)
			if got, want := bytes.Compare(ka, kb), attr.Compare(a, b); got != want {
				t.Fatalf("seed %d: %s %v vs %v: bytes.Compare=%d, Compare=%d", seed, typ, a, b, got, want)
			}
			back, rest, err := attr.DecodeKey(ka, typ)
			if err != nil || len(rest) != 0 || !attr.Equal(back, a) {
				t.Fatalf("seed %d: DecodeKey(%v) = %v, %q, %v", seed, a, back, rest, err)
			}
			// Pairs: partition first, then sort key.
			c, d := randKey(r, attr.TypeS), randKey(r, attr.TypeS)
			pa, pb := attr.AppendKeyPair(nil, c, a), attr.AppendKeyPair(nil, d, b)
			want := sign(attr.Compare(c, d))
			if want == 0 {
				want = attr.Compare(a, b)
			}
			if got := bytes.Compare(pa, pb); got != want {
				t.Fatalf("seed %d: pair (%v,%v) vs (%v,%v): %d want %d", seed, c, a, d, b, got, want)
			}
			if prefix := attr.AppendKey(nil, c); !bytes.HasPrefix(pa, prefix) ||
				(bytes.HasPrefix(pb, prefix) != attr.Equal(c, d)) {
				t.Fatalf("seed %d: partition prefix of %v not exclusive", seed, c)
			}
		}
	}
}

func testingSeed() uint64 {
	s, _ := strconv.ParseUint(strings.TrimSpace(os.Getenv("ATTR_SEED")), 10, 64)
	return s
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b attr.Value
		want int
	}{
		{attr.S("#FRIEND#x"), attr.S("#METADATA#x"), -1},
		{attr.S("#METADATA#u"), attr.S("PHOTO#u#1"), -1},
		{attr.S("PHOTO$"), attr.S("PHOTO#u"), 1},
		{attr.S("a"), attr.S("ab"), -1},
		{attr.S("é"), attr.S("z"), 1}, // UTF-8 bytes, not runes or collation
		{attr.N("10"), attr.N("9"), 1},
		{attr.N("-10"), attr.N("9"), -1},
		{attr.N("1.0"), attr.N("1"), 0},
		{attr.B([]byte{0xFF}), attr.B([]byte{0x01}), 1},
		{attr.B(nil), attr.B([]byte{0}), -1},
	}
	for _, tt := range tests {
		if got := attr.Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b attr.Value
		want bool
	}{
		{attr.S("a"), attr.S("a"), true},
		{attr.S("1"), attr.N("1"), false},
		{attr.N("1.50"), attr.N("1.5"), true},
		{attr.SS("a", "b"), attr.SS("b", "a"), true},
		{attr.SS("a", "b"), attr.SS("a", "c"), false},
		{attr.NS("1", "2"), attr.NS("2.0", "1"), true},
		{attr.BS([]byte("a"), []byte("b")), attr.BS([]byte("b"), []byte("a")), true},
		{attr.L(attr.S("a"), attr.S("b")), attr.L(attr.S("b"), attr.S("a")), false},
		{attr.M(map[string]attr.Value{"x": attr.N("1")}), attr.M(map[string]attr.Value{"x": attr.N("1.0")}), true},
		{attr.M(map[string]attr.Value{"x": attr.N("1")}), attr.M(map[string]attr.Value{"y": attr.N("1")}), false},
		{attr.Null(), attr.Null(), true},
		{attr.Bool(true), attr.Bool(false), false},
		{attr.B(nil), attr.B([]byte{}), true},
	}
	for _, tt := range tests {
		if got := attr.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClone(t *testing.T) {
	orig := attr.M(map[string]attr.Value{"l": attr.L(attr.B([]byte("x")), attr.SS("a"))})
	c := orig.Clone()
	c.M["l"].List()[0].Bytes()[0] = 'y'
	c.M["l"].List()[1].SS()[0] = "b"
	if orig.M["l"].List()[0].Bytes()[0] != 'x' || orig.M["l"].List()[1].SS()[0] != "a" {
		t.Fatal("Clone shares memory with the original")
	}
}

// TestKeyLen is a property test: KeyLen finds where each value of a
// concatenation of random key encodings ends, and rejects truncations.
func TestKeyLen(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	for range 5000 {
		types := []attr.Type{attr.TypeS, attr.TypeN, attr.TypeB}
		t1, t2 := types[r.IntN(3)], types[r.IntN(3)]
		a, b := randKey(r, t1), randKey(r, t2)
		ea := attr.AppendKey(nil, a)
		both := attr.AppendKey(bytes.Clone(ea), b)
		n, err := attr.KeyLen(both, t1)
		if err != nil || n != len(ea) {
			t.Fatalf("KeyLen(%x, %v) = %d, %v; want %d", both, t1, n, err, len(ea))
		}
		if m, err := attr.KeyLen(both[n:], t2); err != nil || m != len(both)-n {
			t.Fatalf("KeyLen of the second value %x = %d, %v", both[n:], m, err)
		}
		if _, err := attr.KeyLen(ea[:len(ea)-1], t1); err == nil {
			t.Fatalf("KeyLen of truncated %x accepted", ea[:len(ea)-1])
		}
	}
}

// TestDecodeKeyShared checks that DecodeKeyShared decodes as DecodeKey does,
// and that a string without escaped zero bytes is a view of the key bytes,
// not a copy.
func TestDecodeKeyShared(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    attr.Value
		view bool // the decoded string shares the key's bytes
	}{
		{"string", attr.S("USER#alice"), true},
		{"string with zero bytes", attr.S("a\x00b"), false},
		{"empty string", attr.S(""), false},
		{"binary", attr.B([]byte{0, 1, 0xFF}), false},
		{"number", attr.Int(-42), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := attr.AppendKey(nil, tc.v)
			k = attr.AppendKey(k, attr.S("rest"))
			want, wantRest, err := attr.DecodeKey(k, tc.v.Type)
			if err != nil {
				t.Fatal(err)
			}
			got, rest, err := attr.DecodeKeyShared(k, tc.v.Type)
			if err != nil || !attr.Equal(got, want) || !bytes.Equal(rest, wantRest) {
				t.Fatalf("DecodeKeyShared = %v, %q, %v; want %v, %q", got, rest, err, want, wantRest)
			}
			shares := len(got.S) > 0 && unsafe.StringData(got.S) == &k[0]
			if shares != tc.view {
				t.Errorf("string shares the key's bytes: %v, want %v", shares, tc.view)
			}
		})
	}
	if _, _, err := attr.DecodeKeyShared([]byte("no terminator"), attr.TypeS); err == nil {
		t.Error("a string key without its terminator decoded")
	}
}

// TestAppendKey_Encoding pins the bytes of the key encoding the package doc
// describes: stored data files hold them, so a change that keeps their
// order but not their bytes would make every stored key unreachable.
func TestAppendKey_Encoding(t *testing.T) {
	for _, c := range []struct {
		v    attr.Value
		want []byte
	}{
		{attr.S(""), []byte{0x00, 0x01}},
		{attr.S("USER#a"), []byte{'U', 'S', 'E', 'R', '#', 'a', 0x00, 0x01}},
		{attr.S("a\x00b"), []byte{'a', 0x00, 0xFF, 'b', 0x00, 0x01}},
		{attr.S("\x00\x00"), []byte{0x00, 0xFF, 0x00, 0xFF, 0x00, 0x01}},
		{attr.S("ab\x00"), []byte{'a', 'b', 0x00, 0xFF, 0x00, 0x01}},
		{attr.B([]byte{0x00, 0x01, 0xFF}), []byte{0x00, 0xFF, 0x01, 0xFF, 0x00, 0x01}},
		{attr.Int(0), []byte{0x02}},
		{attr.Int(12), []byte{0x03, 129 + 2, '1', '2', 0x00}},
		{attr.Int(-12), []byte{0x01, ^byte(129 + 2), ^byte('1'), ^byte('2'), 0xFF}},
	} {
		if got := attr.AppendKey([]byte("prefix"), c.v); !bytes.Equal(got, append([]byte("prefix"), c.want...)) {
			t.Errorf("AppendKey(%v) = % x, want prefix then % x", c.v, got, c.want)
		}
	}
}
