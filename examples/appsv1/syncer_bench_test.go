package appsv1

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// benchStates reads the 200 public cases as States.
func benchStates(b *testing.B) []State {
	b.Helper()
	f, err := os.Open("testdata/conformance/public-seed1.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var out []State
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for sc.Scan() {
		var l struct {
			Case Case `json:"case"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			b.Fatal(err)
		}
		out = append(out, l.Case.State())
	}
	if len(out) != 200 {
		b.Fatalf("%d cases, want 200", len(out))
	}
	return out
}

// BenchmarkSyncerParts splits one warm Syncer.Sync of a public case per op
// (cycling through the 200) into its parts: the conversion from memory
// (model), the Planner, the writes (toOutput), and the whole (sync); a
// sync whose Deployment is a new version (newVersion, and the same through
// Sync); and one uncached Sync for comparison.
func BenchmarkSyncerParts(b *testing.B) {
	states := benchStates(b)
	var c Syncer
	ins := make([]plan.State, len(states))
	plans := make([]plan.Plan, len(states))
	for i, s := range states {
		if _, _, err := c.Sync(s); err != nil {
			b.Fatal(err)
		}
		in, e, err := c.model(s)
		if err != nil {
			b.Fatal(err)
		}
		e.inUse.Add(-1)
		ins[i] = in
		if plans[i], err = c.planner.Sync(in); err != nil {
			b.Fatal(err)
		}
	}
	cycle := func(b *testing.B, f func(i int) error) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := f(i); err != nil {
				b.Fatal(err)
			}
			if i++; i == len(states) {
				i = 0
			}
		}
	}
	b.Run("model", func(b *testing.B) {
		cycle(b, func(i int) error {
			_, e, err := c.model(states[i])
			e.inUse.Add(-1)
			return err
		})
	})
	b.Run("planner", func(b *testing.B) {
		cycle(b, func(i int) error { _, err := c.planner.Sync(ins[i]); return err })
	})
	b.Run("toOutput", func(b *testing.B) {
		cycle(b, func(i int) error { _, err := toOutput(states[i], &ins[i], plans[i]); return err })
	})
	b.Run("sync", func(b *testing.B) {
		cycle(b, func(i int) error { _, _, err := c.Sync(states[i]); return err })
	})
	// newVersion: the Deployment comes at a new resourceVersion at every
	// sync (as after each status write), template unchanged; the op
	// includes making that copy (DeepCopy).
	newVersion := func(sync func(State, ...plan.Option) (Output, plan.Plan, error)) func(*testing.B) {
		return func(b *testing.B) {
			n := 0
			cycle(b, func(i int) error {
				n++
				s := states[i]
				s.Deployment = s.Deployment.DeepCopy()
				s.Deployment.ResourceVersion = strconv.Itoa(n)
				_, _, err := sync(s)
				return err
			})
		}
	}
	b.Run("newVersion", newVersion(c.Sync))
	b.Run("newVersionUncached", newVersion(Sync))
	b.Run("uncached", func(b *testing.B) {
		cycle(b, func(i int) error { _, _, err := Sync(states[i]); return err })
	})
}
