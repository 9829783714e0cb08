package plan

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSmallMapLikeMap: any sequence of sets reads back like a Go map,
// across the switch from the inline array to the map.
func TestSmallMapLikeMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 200 {
		var m smallMap[string]
		want := map[string]int{}
		keys := 1 + r.IntN(3*smallMapInline)
		for range 100 {
			k := strconv.Itoa(r.IntN(keys))
			if r.IntN(2) == 0 {
				v := r.IntN(10)
				m.set(k, v)
				want[k] = v
			}
			k = strconv.Itoa(r.IntN(keys + 1))
			got, ok := m.get(k)
			w, wok := want[k]
			if got != w || ok != wok {
				t.Fatalf("round %d: get(%q) = %d, %v; a map gives %d, %v", round, k, got, ok, w, wok)
			}
		}
	}
}
