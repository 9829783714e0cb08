package appsv1

import (
	"errors"
	"strconv"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// benchStates reads the 200 public cases as States.
func benchStates(b *testing.B) []State {
	b.Helper()
	var out []State
	for _, l := range ReadJSONL[struct {
		Case Case `json:"case"`
	}](b, "testdata/conformance/public-seed1.jsonl") {
		out = append(out, l.Case.State())
	}
	if len(out) != 200 {
		b.Fatalf("%d cases, want 200", len(out))
	}
	return out
}

// BenchmarkSyncerParts splits one warm Syncer.Sync of a public case per op
// (cycling through the 200) into its parts: the conversion from the cache
// (model), planning (plan, told the pod specs were checked when the
// conversion found them valid, as Sync tells it; planUnchecked, not told,
// as a caller of plan.Sync without a Syncer), the writes (toOutput),
// and the whole (sync); a sync whose Deployment is a new version
// (newVersion, and the same through Sync); and one uncached Sync for
// comparison.
func BenchmarkSyncerParts(b *testing.B) {
	states := benchStates(b)
	var c Syncer
	ins := make([]plan.State, len(states))
	memos := make([]*hashMemo, len(states))
	checked := make([]validated, len(states)) // what passed, as Syncer.Sync tells the planner
	plans := make([]plan.Plan, len(states))
	planWith := func(i int, known validated) (plan.Plan, error) {
		s, in := states[i], ins[i]
		opts := []plan.Option{plan.WithHasher(deploymentHasher(&s.Deployment.Spec.Template, in.Deployment.Spec.Template, memos[i]))}
		if known.specs {
			opts = append(opts, plan.PodSpecsValidated())
		}
		if known.objects {
			opts = append(opts, plan.ReplicaSetsAndPodsValidated())
		}
		p, err := plan.Sync(in, opts...)
		var syncErr *plan.SyncError
		if errors.As(err, &syncErr) {
			err = nil
		}
		return p, err
	}
	planOf := func(i int) (plan.Plan, error) { return planWith(i, checked[i]) }
	for i, s := range states {
		if _, _, err := c.Sync(s); err != nil && !isSyncError(err) {
			b.Fatal(err)
		}
		in, memo, ok, err := c.model(s)
		if err != nil {
			b.Fatal(err)
		}
		ins[i], memos[i], checked[i] = in, memo, ok
		if plans[i], err = planOf(i); err != nil {
			b.Fatal(err)
		}
	}
	cycle := func(b *testing.B, f func(i int) error) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := f(i); err != nil && !isSyncError(err) {
				b.Fatal(err)
			}
			if i++; i == len(states) {
				i = 0
			}
		}
	}
	b.Run("model", func(b *testing.B) {
		cycle(b, func(i int) error { _, _, _, err := c.model(states[i]); return err })
	})
	b.Run("plan", func(b *testing.B) {
		cycle(b, func(i int) error { _, err := planOf(i); return err })
	})
	b.Run("planUnchecked", func(b *testing.B) {
		cycle(b, func(i int) error { _, err := planWith(i, validated{}); return err })
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

// isSyncError reports whether err is the error a sync ends with (returned
// with its plan), not a failure to plan.
func isSyncError(err error) bool {
	var syncErr *plan.SyncError
	return errors.As(err, &syncErr)
}
