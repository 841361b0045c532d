package attr

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Limits of DynamoDB numbers.
const (
	// MaxDigits is the most significant digits a Number may hold.
	MaxDigits = 38
	// minExp and maxExp bound Decimal.exp: magnitudes lie in
	// [0.1e-129, 0.99…9e126), that is [1E-130, 9.99…9E+125].
	minExp = -129
	maxExp = 126
)

// Decimal is an exact decimal number: (-1)^neg × 0.digits × 10^exp.
// digits has no leading or trailing zeros; the zero Decimal has no digits.
// Decimals produced by ParseDecimal and arithmetic are normalized, so two
// equal numbers have equal fields.
type Decimal struct {
	neg    bool
	digits string // significant digits '1'..'9' first and last
	exp    int    // position of the decimal point relative to digits
}

// IsZero reports whether d is zero.
func (d Decimal) IsZero() bool { return d.digits == "" }

// Sign returns -1, 0 or +1.
func (d Decimal) Sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// Digits returns the number of significant digits (0 for zero).
func (d Decimal) Digits() int { return len(d.digits) }

// ParseDecimal parses a DynamoDB number literal (an optional sign, digits
// with an optional decimal point, an optional exponent) and checks it
// against DynamoDB's precision and range. The error is a *ValidationError.
func ParseDecimal(s string) (Decimal, error) {
	d, err := parseDecimal(s)
	if err != nil {
		return Decimal{}, err
	}
	return d, d.check()
}

// parseDecimal parses s without checking precision or range. The digits of
// the result are a substring of s unless a decimal point falls among them,
// so that comparing and encoding numbers seldom allocates.
func parseDecimal(s string) (Decimal, error) {
	var d Decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	// The mantissa is s[start:i]; lo and hi bound its significant digits
	// (first and last non-zero), point is the index of its '.' or -1.
	start, lo, hi, point := i, -1, -1, -1
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '1' && c <= '9' {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
			continue
		}
		if c == '0' {
			continue
		}
		if c == '.' && point < 0 {
			point = i
			continue
		}
		break
	}
	end := i
	if end-start == 0 || end-start == 1 && point == start {
		return Decimal{}, &ValidationError{Message: msgNotNumber}
	}
	exp := 0
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return Decimal{}, &ValidationError{Message: msgNotNumber}
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return Decimal{}, &ValidationError{Message: msgNotNumber}
		}
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return Decimal{}, &ValidationError{Message: msgNotNumber}
			}
			if exp = exp*10 + int(c-'0'); exp > math.MaxInt32 {
				// Beyond a 32-bit exponent DynamoDB does not see a number.
				return Decimal{}, &ValidationError{Message: msgNotNumber}
			}
		}
		if eneg {
			exp = -exp
		}
	}
	if lo < 0 {
		return Decimal{}, nil
	}
	// The point sits after the mantissa's integer digits; each leading zero
	// (digits before lo) moves it one place left.
	if point < 0 {
		point = end
	}
	d.exp = point - lo + exp
	if point < lo {
		d.exp++ // the point itself lies before lo
	}
	if lo < point && point < hi {
		d.digits = s[lo:point] + s[point+1:hi]
	} else {
		d.digits = s[lo:hi]
	}
	return d, nil
}

// check applies DynamoDB's precision and range limits.
func (d Decimal) check() error {
	if d.digits == "" {
		return nil
	}
	if d.exp > maxExp {
		return &ValidationError{Message: msgOverflow}
	}
	if d.exp < minExp {
		return &ValidationError{Message: msgUnderflow}
	}
	if len(d.digits) > MaxDigits {
		return &ValidationError{Message: msgTooManyDigits}
	}
	return nil
}

// String returns the canonical text DynamoDB returns for the number: plain
// notation (no exponent), no leading zeros before the integer part, no
// trailing zeros after the point, no "+" and no "-0".
func (d Decimal) String() string {
	switch {
	case d.digits == "":
		return "0"
	case !d.neg && d.exp == len(d.digits):
		return d.digits // a positive integer without trailing zeros
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	n := len(d.digits)
	switch {
	case d.exp <= 0:
		b.WriteString("0.")
		for i := 0; i < -d.exp; i++ {
			b.WriteByte('0')
		}
		b.WriteString(d.digits)
	case d.exp >= n:
		b.WriteString(d.digits)
		for i := 0; i < d.exp-n; i++ {
			b.WriteByte('0')
		}
	default:
		b.WriteString(d.digits[:d.exp])
		b.WriteByte('.')
		b.WriteString(d.digits[d.exp:])
	}
	return b.String()
}

// Cmp compares d and e numerically and returns -1, 0 or +1.
func (d Decimal) Cmp(e Decimal) int {
	ds, es := d.Sign(), e.Sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	if ds == 0 {
		return 0
	}
	c := cmpMagnitude(d, e)
	if ds < 0 {
		return -c
	}
	return c
}

// cmpMagnitude compares |d| and |e|, both non-zero.
func cmpMagnitude(d, e Decimal) int {
	if d.exp != e.exp {
		if d.exp < e.exp {
			return -1
		}
		return 1
	}
	// Same point position: compare digit strings; a proper prefix is smaller.
	return strings.Compare(d.digits, e.digits)
}

// Neg returns -d.
func (d Decimal) Neg() Decimal {
	if d.digits != "" {
		d.neg = !d.neg
	}
	return d
}

// Add returns d+e exactly, checked against DynamoDB's precision and range.
//
// A sum needing more than 38 digits fails with the precision error even
// when it is also out of range (DynamoDB Local checks precision first).
func (d Decimal) Add(e Decimal) (Decimal, error) {
	r := addExact(d, e)
	if len(r.digits) > MaxDigits {
		return r, &ValidationError{Message: msgTooManyDigits}
	}
	return r, r.check()
}

// Sub returns d-e exactly, checked against DynamoDB's precision and range.
func (d Decimal) Sub(e Decimal) (Decimal, error) { return d.Add(e.Neg()) }

// addExact adds two decimals with big integers aligned to the smaller scale.
func addExact(d, e Decimal) Decimal {
	if d.digits == "" {
		return e
	}
	if e.digits == "" {
		return d
	}
	// value = coefficient × 10^(exp - len(digits))
	dScale, eScale := d.exp-len(d.digits), e.exp-len(e.digits)
	scale := min(dScale, eScale)
	// Counters add small integers: while both aligned coefficients fit in 18
	// digits their sum fits in an int64, and big.Int's allocations are spared.
	if a, ok := d.coefficient64(dScale - scale); ok {
		if b, ok := e.coefficient64(eScale - scale); ok {
			return fromDigits(strconv.FormatInt(a+b, 10), scale)
		}
	}
	a, b := d.coefficient(dScale-scale), e.coefficient(eScale-scale)
	a.Add(a, b)
	return fromDigits(a.String(), scale)
}

// coefficient64 is coefficient for values of at most 18 digits once
// shifted; ok is false for larger ones.
func (d Decimal) coefficient64(shift int) (int64, bool) {
	if len(d.digits)+shift > 18 {
		return 0, false
	}
	var z int64
	for i := 0; i < len(d.digits); i++ {
		z = z*10 + int64(d.digits[i]-'0')
	}
	for range shift {
		z *= 10
	}
	if d.neg {
		z = -z
	}
	return z, true
}

// coefficient returns the signed digits as an integer times 10^shift.
func (d Decimal) coefficient(shift int) *big.Int {
	s := d.digits + strings.Repeat("0", shift)
	z, _ := new(big.Int).SetString(s, 10)
	if d.neg {
		z.Neg(z)
	}
	return z
}

// fromDigits builds the normalized Decimal s × 10^scale from the decimal
// integer s (an optional '-', then digits without leading zeros).
func fromDigits(s string, scale int) Decimal {
	if s == "0" {
		return Decimal{}
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	n := len(s)
	end := n
	for end > 0 && s[end-1] == '0' {
		end--
	}
	return Decimal{neg: neg, digits: s[:end], exp: n + scale}
}

// DecimalFromInt returns the Decimal for i.
func DecimalFromInt(i int64) Decimal {
	d, _ := parseDecimal(strconv.FormatInt(i, 10))
	return d
}
