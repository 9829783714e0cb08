package main

import (
	"strings"
	"testing"
)

const out = `goos: linux
BenchmarkHashRealistic/upstream-2         	   50000	     24000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/upstream-2         	   50000	     26000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/upstream-2         	   50000	     25000 ns/op	    5700 B/op	     303 allocs/op
BenchmarkHashRealistic/rolloutplan-2      	  500000	      2000 ns/op	       0 B/op	       0 allocs/op
BenchmarkHashRealistic/rolloutplan-2      	  500000	      3000 ns/op	       0 B/op	       0 allocs/op
BenchmarkSimulate100kCounts/rolloutplan-2 	       1	 2900000000 ns/op	  200000 syncs	 1000 B/op	 10 allocs/op
PASS
`

// TestTable: medians (25 000 and 2 500: the mean of the middle two of an
// even count), the ratio of the medians 10.0× (3 against 2 runs; meets
// ≥ 10×), the simulator over its
// absolute limit, and rows without measurements reported as not run.
func TestTable(t *testing.T) {
	s, err := parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if got := median(s["HashRealistic/upstream"].ns); got != 25000 {
		t.Errorf("upstream median %v, want 25000", got)
	}
	if got := median(s["HashRealistic/rolloutplan"].ns); got != 2500 {
		t.Errorf("rolloutplan median %v, want 2500", got)
	}
	if got := spread(s["HashRealistic/upstream"].ns); got != 8 {
		t.Errorf("spread %v%%, want 8%% (2000 of 25000)", got)
	}
	if got := ratio([]float64{10, 30, 20}, []float64{1, 2, 4}); got != 10 {
		t.Errorf("paired ratio %v, want 10 (the median of 10, 15, 5)", got)
	}
	var b strings.Builder
	missed := table(&b, s)
	if missed != len(rows)-1 {
		t.Errorf("%d rows missed, want all but HashRealistic:\n%s", missed, b.String())
	}
	for _, want := range []string{"| 10.0× | ≥ 10× | yes |", "2900.00 ms", "not run"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
