package loadtest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Mixes are the named workloads, each a weight per operation (weights are percentages).
var Mixes = map[string]string{
	// standard is the performance issue's 7-operation workload: mostly reads, as the app is.
	"standard": "profile=30,photos=25,photo=15,followers=10,following=10,react=5,follow=5",
	// feed adds the feed and the uploads that fill it: what the app's home screen does.
	"feed": "feed=30,profile=20,photos=15,photo=10,followers=5,following=5,upload=5,react=5,follow=5",
	// uploads is the standard mix's reads beside uploads of real files: how the reads fare
	// while the server decodes and resizes images (compare with reads).
	"uploads": "profile=30,photos=25,photo=15,followers=10,following=10,uploadfile=10",
	// reads is the reads of uploads alone, in about the same proportions: its baseline.
	"reads": "profile=33,photos=28,photo=17,followers=11,following=11",
}

// Mix is a weighted choice of operations.
type Mix struct {
	ops     []*operation
	weights []int
	total   int
}

// ParseMix reads a mix: the name of one of Mixes, or "op=weight,…" with the operation names of
// Operations.
func ParseMix(spec string) (Mix, error) {
	if named, ok := Mixes[spec]; ok {
		spec = named
	}
	var m Mix
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		name, weight, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Mix{}, fmt.Errorf("mix %q: %q is not op=weight (or name one of %s)", spec, part, strings.Join(MixNames(), ", "))
		}
		op := operations[name]
		if op == nil {
			return Mix{}, fmt.Errorf("mix %q: no operation %q (there are %s)", spec, name, strings.Join(OperationNames(), ", "))
		}
		w, err := strconv.Atoi(weight)
		if err != nil || w < 0 {
			return Mix{}, fmt.Errorf("mix %q: the weight of %s must be a whole number ≥ 0", spec, name)
		}
		if seen[name] {
			return Mix{}, fmt.Errorf("mix %q: %s is given twice", spec, name)
		}
		seen[name] = true
		if w > 0 {
			m.ops, m.weights, m.total = append(m.ops, op), append(m.weights, w), m.total+w
		}
	}
	if m.total == 0 {
		return Mix{}, fmt.Errorf("mix %q: no operation has a weight", spec)
	}
	return m, nil
}

// pick draws an operation with the mix's weights.
func (m Mix) pick(r *rand.Rand) *operation {
	n := r.IntN(m.total)
	for i, w := range m.weights {
		if n < w {
			return m.ops[i]
		}
		n -= w
	}
	panic("unreachable")
}

// needsCaller reports whether an operation of the mix reads as the signed-in caller.
func (m Mix) needsCaller() bool {
	for _, op := range m.ops {
		if op.asCaller {
			return true
		}
	}
	return false
}

// has reports whether the mix sends op.
func (m Mix) has(name string) bool {
	for _, op := range m.ops {
		if op.name == name {
			return true
		}
	}
	return false
}

// String spells the mix as ParseMix reads it.
func (m Mix) String() string {
	parts := make([]string, len(m.ops))
	for i, op := range m.ops {
		parts[i] = op.name + "=" + strconv.Itoa(m.weights[i])
	}
	return strings.Join(parts, ",")
}

// MixNames lists the named mixes.
func MixNames() []string {
	names := make([]string, 0, len(Mixes))
	for name := range Mixes {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
