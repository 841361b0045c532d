package attr_test

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

func TestParseDecimal_Canonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"+0", "0"}, {"0.000", "0"}, {"0e99999", "0"},
		{"1", "1"}, {"01", "1"}, {"+1", "1"}, {"1.50", "1.5"}, {"1e2", "100"},
		{"1E+2", "100"}, {"1.5e-3", "0.0015"}, {"-12.340", "-12.34"},
		{".5", "0.5"}, {"5.", "5"}, {"00012300", "12300"}, {"123.456e1", "1234.56"},
		{"1E-130", "0." + strings.Repeat("0", 129) + "1"},
		{"9.9999999999999999999999999999999999999E+125", "99999999999999999999999999999999999999" + strings.Repeat("0", 88)},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
		{"1234567890123456789012345678901234567800000", "1234567890123456789012345678901234567800000"},
	}
	for _, tt := range tests {
		d, err := attr.ParseDecimal(tt.in)
		if err != nil {
			t.Errorf("ParseDecimal(%q): %v", tt.in, err)
			continue
		}
		if got := d.String(); got != tt.want {
			t.Errorf("ParseDecimal(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseDecimal_Errors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"", "A value provided cannot be converted into a number"},
		{"abc", "A value provided cannot be converted into a number"},
		{"1.2.3", "A value provided cannot be converted into a number"},
		{"1e", "A value provided cannot be converted into a number"},
		{" 1", "A value provided cannot be converted into a number"},
		{"1 ", "A value provided cannot be converted into a number"},
		{"NaN", "A value provided cannot be converted into a number"},
		{"Infinity", "A value provided cannot be converted into a number"},
		{"0x10", "A value provided cannot be converted into a number"},
		{"-", "A value provided cannot be converted into a number"},
		{".", "A value provided cannot be converted into a number"},
		{"123456789012345678901234567890123456789", "Attempting to store more than 38 significant digits in a Number"},
		{"1E+126", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"-1E+126", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"1E-131", "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
		{"1e99999999999999999999", "A value provided cannot be converted into a number"},
		{"1e2147483648", "A value provided cannot be converted into a number"},
		{"1e2147483647", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
	}
	for _, tt := range tests {
		_, err := attr.ParseDecimal(tt.in)
		var ve *attr.ValidationError
		if !errors.As(err, &ve) || ve.Message != tt.msg {
			t.Errorf("ParseDecimal(%q) error = %v, want %q", tt.in, err, tt.msg)
		}
	}
}

func TestDecimal_Cmp(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"2", "1", 1}, {"1", "1.0", 0}, {"-1", "1", -1},
		{"0", "-0", 0}, {"0", "0.0001", -1}, {"-0.0001", "0", -1},
		{"10", "9", 1}, {"0.5", "0.51", -1}, {"-0.5", "-0.51", 1},
		{"1e10", "9999999999", 1}, {"-1e10", "-9999999999", -1},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345679", -1},
	}
	for _, tt := range tests {
		a, _ := attr.ParseDecimal(tt.a)
		b, _ := attr.ParseDecimal(tt.b)
		if got := a.Cmp(b); got != tt.want {
			t.Errorf("Cmp(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestDecimal_AddSub(t *testing.T) {
	tests := []struct{ a, b, sum, diff string }{
		{"1", "2", "3", "-1"},
		{"0.1", "0.2", "0.3", "-0.1"},
		{"1.5", "-1.5", "0", "3"},
		{"100", "0.001", "100.001", "99.999"},
		{"99999999999999999999999999999999999999", "0", "99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
		{"1e100", "1e100", "2" + strings.Repeat("0", 100), "0"},
		{"-5", "-7", "-12", "2"},
		{"0", "0", "0", "0"},
		{"100", "-100", "0", "200"},
		{"12.5", "-12.25", "0.25", "24.75"},
		// Around the int64 fast path's limit of 18 aligned digits.
		{"999999999999999999", "1", "1000000000000000000", "999999999999999998"},
		{"-999999999999999999", "-999999999999999999", "-1999999999999999998", "0"},
		{"9999999999999999999", "1", "10000000000000000000", "9999999999999999998"},
		{"0.000000000000000001", "1", "1.000000000000000001", "-0.999999999999999999"},
		{"0.00000000000000001", "1", "1.00000000000000001", "-0.99999999999999999"},
	}
	for _, tt := range tests {
		a, _ := attr.ParseDecimal(tt.a)
		b, _ := attr.ParseDecimal(tt.b)
		s, err := a.Add(b)
		if err != nil || s.String() != tt.sum {
			t.Errorf("%s + %s = %s, %v; want %s", tt.a, tt.b, s, err, tt.sum)
		}
		d, err := a.Sub(b)
		if err != nil || d.String() != tt.diff {
			t.Errorf("%s - %s = %s, %v; want %s", tt.a, tt.b, d, err, tt.diff)
		}
	}
}

// TestDecimal_AddMatchesBigRat checks sums of random decimals, on both sides
// of the int64 fast path's limit, against math/big.
func TestDecimal_AddMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func() string {
		digits := make([]byte, 1+r.IntN(22))
		for i := range digits {
			digits[i] = byte('0' + r.IntN(10))
		}
		sign := ""
		if r.IntN(2) == 0 {
			sign = "-"
		}
		return sign + string(digits) + "e" + strconv.Itoa(r.IntN(13)-6)
	}
	for range 20000 {
		x, y := random(), random()
		a, _ := attr.ParseDecimal(x)
		b, _ := attr.ParseDecimal(y)
		got, err := a.Add(b)
		if err != nil {
			t.Fatalf("%s + %s: %v", x, y, err)
		}
		want, _ := new(big.Rat).SetString(x)
		yr, _ := new(big.Rat).SetString(y)
		want.Add(want, yr)
		if g, ok := new(big.Rat).SetString(got.String()); !ok || g.Cmp(want) != 0 {
			t.Fatalf("%s + %s = %s, want %s", x, y, got, want.FloatString(10))
		}
	}
}

func TestDecimal_AddErrors(t *testing.T) {
	tests := []struct{ a, b, msg string }{
		{"1e100", "1", "Attempting to store more than 38 significant digits in a Number"},
		{"9.9999999999999999999999999999999999999E+125", "1E+125", "Attempting to store more than 38 significant digits in a Number"},
		{"9E+125", "9E+125", "Number overflow. Attempting to store a number with magnitude larger than supported range"},
		{"1E-130", "-1.1E-130", "Number underflow. Attempting to store a number with magnitude smaller than supported range"},
	}
	for _, tt := range tests {
		a, _ := attr.ParseDecimal(tt.a)
		b, _ := attr.ParseDecimal(tt.b)
		_, err := a.Add(b)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("%s + %s error = %v, want %q", tt.a, tt.b, err, tt.msg)
		}
	}
}
