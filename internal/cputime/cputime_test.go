//go:build unix

package cputime

import "testing"

// TestProcessAdvances: busy work adds CPU time, and the reading is never
// negative.
func TestProcessAdvances(t *testing.T) {
	start := Process()
	if start < 0 {
		t.Fatalf("Process() = %v, want ≥ 0", start)
	}
	x := uint64(1)
	for Process() == start {
		for range 1_000_000 {
			x = x*6364136223846793005 + 1
		}
	}
	if x == 0 {
		t.Log(x) // keeps the loop from being optimised away
	}
}
