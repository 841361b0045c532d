package loadtest

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	for _, tc := range []struct {
		spec, want, err string
	}{
		{spec: "standard", want: "profile=30,photos=25,photo=15,followers=10,following=10,react=5,follow=5"},
		{spec: "feed", want: Mixes["feed"]},
		{spec: "profile=1, feed=3", want: "profile=1,feed=3"},
		{spec: "profile=1,photo=0", want: "profile=1"},
		{spec: "profile", err: "is not op=weight"},
		{spec: "likes=3", err: `no operation "likes"`},
		{spec: "profile=-1", err: "whole number"},
		{spec: "profile=x", err: "whole number"},
		{spec: "profile=1,profile=2", err: "given twice"},
		{spec: "profile=0", err: "no operation has a weight"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			m, err := ParseMix(tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseMix(%q) = %v, want an error with %q", tc.spec, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := m.String(); got != tc.want {
				t.Errorf("ParseMix(%q) = %s, want %s", tc.spec, got, tc.want)
			}
		})
	}
}

// Every named mix's weights are percentages.
func TestMixes_AddUpToAHundred(t *testing.T) {
	for name := range Mixes {
		m, err := ParseMix(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.total != 100 {
			t.Errorf("mix %s adds up to %d", name, m.total)
		}
	}
}

func TestMix_PicksInProportion(t *testing.T) {
	m, _ := ParseMix("profile=70,react=20,feed=10")
	r := rand.New(rand.NewPCG(1, 2))
	const draws = 100000
	got := map[string]int{}
	for range draws {
		got[m.pick(r).name]++
	}
	for name, share := range map[string]float64{"profile": 0.7, "react": 0.2, "feed": 0.1} {
		if f := float64(got[name]) / draws; f < share-0.01 || f > share+0.01 {
			t.Errorf("%s drawn %.3f of the time, want %.2f", name, f, share)
		}
	}
	if !m.needsCaller() || !m.has("react") || m.has("follow") {
		t.Errorf("needsCaller %v, has react %v, has follow %v", m.needsCaller(), m.has("react"), m.has("follow"))
	}
}
