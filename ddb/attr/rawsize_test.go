package attr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// sizeStrings cover escapes, multi-byte UTF-8 and the empty string.
var sizeStrings = []string{"", "plain", `q"b\`, "ctl\n\t\x01", "é日本🎉", "<&>", "\u2028"}

func randSizeValue(r *rand.Rand, depth int) attr.Value {
	str := func() string { return sizeStrings[r.IntN(len(sizeStrings))] }
	bin := func() []byte { return []byte(str() + string(rune('a'+r.IntN(26)))) }
	switch k := r.IntN(10); {
	case k == 0:
		return attr.N([]string{"0", "-1.5", "12345678901234567890", "1E+100", "0.000001", "100"}[r.IntN(6)])
	case k == 1:
		return attr.B(bin()[:r.IntN(4)])
	case k == 2:
		return attr.Bool(r.IntN(2) == 0)
	case k == 3:
		return attr.Null()
	case k == 4:
		return attr.SS(str(), str()+"x")
	case k == 5:
		return attr.NS("1", "22.5", "-3E-7")
	case k == 6:
		return attr.BS(bin(), []byte("zz"))
	case k == 7 && depth > 0:
		return attr.L(randSizeValue(r, depth-1), randSizeValue(r, depth-1))
	case k == 8 && depth > 0:
		return attr.M(map[string]attr.Value{str(): randSizeValue(r, depth-1), "k": randSizeValue(r, depth-1)})
	}
	return attr.S(str())
}

// TestSizeJSON_MatchesSize checks SizeJSON on encoded items against Size.
func TestSizeJSON_MatchesSize(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		it := attr.Item{}
		for range r.IntN(6) {
			it[sizeStrings[r.IntN(len(sizeStrings))]+"n"] = randSizeValue(r, 3)
		}
		data := attr.AppendItemJSON(nil, it)
		got, err := attr.SizeJSON(data)
		if err != nil {
			t.Fatalf("SizeJSON(%s): %v", data, err)
		}
		if want := attr.Size(it); got != want {
			t.Fatalf("SizeJSON(%s) = %d, Size = %d", data, got, want)
		}
	}
	if _, err := attr.SizeJSON([]byte(`{"a":`)); err == nil {
		t.Error("SizeJSON accepted truncated JSON")
	}
}
