package restart

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

var (
	configPool   = []string{"configmap/a/one", "configmap/a/two", "secret/a/one", "secret/a/three"}
	workloadPool = []string{"deployment/a/web", "deployment/a/api", "statefulset/a/db"}
	checksums    = []string{"c1", "c2", "c3"}
)

// event is one generated informer event.
type event struct {
	config   bool
	delete   bool
	name     string
	checksum string            // config
	refs     []string          // workload
	applied  map[string]string // workload; nil: no annotation
	enabled  bool
}

func (e event) String() string {
	if e.config {
		return fmt.Sprintf("config %s=%s del=%v", e.name, e.checksum, e.delete)
	}
	return fmt.Sprintf("workload %s refs=%v applied=%v enabled=%v del=%v", e.name, e.refs, e.applied, e.enabled, e.delete)
}

func genRefs(t *rapid.T, label string) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(configPool), 0, 3, rapid.ID[string]).Draw(t, label)
}

func genEvent(t *rapid.T, allowDelete bool, appliedFor func(refs []string) map[string]string) event {
	e := event{config: rapid.Bool().Draw(t, "config")}
	if allowDelete {
		e.delete = rapid.IntRange(0, 9).Draw(t, "delete") == 0
	}
	if e.config {
		e.name = rapid.SampledFrom(configPool).Draw(t, "name")
		e.checksum = rapid.SampledFrom(checksums).Draw(t, "checksum")
		return e
	}
	e.name = rapid.SampledFrom(workloadPool).Draw(t, "name")
	e.refs = genRefs(t, "refs")
	e.enabled = rapid.IntRange(0, 9).Draw(t, "enabled") > 0
	e.applied = appliedFor(e.refs)
	return e
}

// anyApplied draws an arbitrary annotation.
func anyApplied(t *rapid.T) func([]string) map[string]string {
	return func([]string) map[string]string {
		if rapid.Bool().Draw(t, "hasAnnotation") {
			return nil
		}
		return rapid.MapOfN(rapid.SampledFrom(configPool), rapid.SampledFrom(checksums), 0, 3).Draw(t, "applied")
	}
}

// observe feeds e to tr with a fresh resourceVersion.
func observe(t *rapid.T, tr *Tracker, e event, version int, now time.Time) {
	ref := mustRef(e.name)
	if e.delete {
		if err := tr.Delete(ref); err != nil {
			t.Fatal(err)
		}
		return
	}
	v := fmt.Sprint(version)
	var err error
	if e.config {
		_, err = tr.ObserveConfig(Config{Ref: ref, Version: v, Checksum: e.checksum}, now)
	} else {
		w := workload(e.name, v, e.applied, e.refs...)
		if !e.enabled {
			delete(w.Annotations, AnnotationEnabled)
		}
		_, err = tr.ObserveWorkload(w, now)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Property: a workload is restarted only when a config's checksum differs
// from what the workload had applied. Every config is seen with one checksum
// only and every annotation holds either nothing or those checksums, so no
// plan may restart anything.
func TestPropertyNoRestartWithoutChecksumChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fixed := map[string]string{}
		for _, c := range configPool {
			fixed[c] = rapid.SampledFrom(checksums).Draw(t, "checksum of "+c)
		}
		appliedFor := func(refs []string) map[string]string {
			if rapid.Bool().Draw(t, "hasAnnotation") {
				return nil
			}
			m := map[string]string{}
			for _, r := range refs {
				if rapid.Bool().Draw(t, "recorded") {
					m[r] = fixed[r]
				}
			}
			return m
		}
		tr, _ := NewTracker(Options{GracePeriod: 2 * time.Second})
		n := rapid.IntRange(1, 40).Draw(t, "events")
		now := t0
		for i := 0; i < n; i++ {
			e := genEvent(t, true, appliedFor)
			e.checksum = fixed[e.name]
			observe(t, tr, e, i+1, now)
			now = now.Add(time.Duration(rapid.IntRange(0, 1500).Draw(t, "ms")) * time.Millisecond)
			res := tr.Plan(now, false)
			for _, p := range res.Patches {
				if p.Restart {
					t.Fatalf("restart without a checksum change: %+v", p)
				}
			}
			tr.Apply(res, nil)
		}
	})
}

// Property: Plan does not modify its inputs, sends at most one patch per
// workload, and planning the outcome of an applied plan again (the same
// changes, the annotations as patched) patches nothing.
func TestPropertyIdempotentAndOnePatchPerWorkload(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr, _ := NewTracker(Options{GracePeriod: time.Second})
		n := rapid.IntRange(1, 40).Draw(t, "events")
		now := t0
		for i := 0; i < n; i++ {
			observe(t, tr, genEvent(t, true, anyApplied(t)), i+1, now)
			now = now.Add(time.Duration(rapid.IntRange(0, 800).Draw(t, "ms")) * time.Millisecond)
			if !rapid.Bool().Draw(t, "tick") {
				continue
			}
			c, ch := tr.Catalog(), tr.Changes()
			cBefore, chBefore := c.Clone(), maps.Clone(ch)
			res, err := Plan(c, ch, now, tr.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, cBefore) || !reflect.DeepEqual(ch, chBefore) {
				t.Fatal("Plan modified its inputs")
			}
			seen := map[string]bool{}
			for _, p := range res.Patches {
				if seen[p.Workload.String()] {
					t.Fatalf("two patches for %s", p.Workload)
				}
				seen[p.Workload.String()] = true
			}
			// The outcome: every patch applied.
			after := c.Clone()
			for _, p := range res.Patches {
				w := after.Workloads[p.Workload.String()]
				w.Applied, w.Baseline, w.RetryRestart = maps.Clone(p.Checksums), nil, false
				after.Workloads[p.Workload.String()] = w
			}
			again, _ := Plan(after, ch, now, tr.opts)
			if len(again.Patches) != 0 {
				t.Fatalf("planning the applied outcome again: %+v", again.Patches)
			}
			tr.Apply(res, nil)
		}
	})
}

// Property: the order in which the informer delivers events of different
// resources within one grace period does not change the decisions (each
// resource's own events keep their order).
func TestPropertyOrderIndependentWithinGracePeriod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "events")
		var events []event
		for i := 0; i < n; i++ {
			events = append(events, genEvent(t, false, anyApplied(t)))
		}
		// A random interleaving keeping each resource's order.
		perm := slices.Clone(events)
		queues := map[string][]event{}
		var names []string
		for _, e := range events {
			if _, ok := queues[e.name]; !ok {
				names = append(names, e.name)
			}
			queues[e.name] = append(queues[e.name], e)
		}
		perm = perm[:0]
		for len(perm) < len(events) {
			var open []string
			for _, nm := range names {
				if len(queues[nm]) > 0 {
					open = append(open, nm)
				}
			}
			nm := rapid.SampledFrom(open).Draw(t, "next")
			perm = append(perm, queues[nm][0])
			queues[nm] = queues[nm][1:]
		}
		plan := func(evs []event) []Patch {
			tr, _ := NewTracker(Options{GracePeriod: 5 * time.Second})
			for i, e := range evs {
				observe(t, tr, e, i+1, t0)
			}
			res := tr.Plan(t0.Add(5*time.Second), false)
			return res.Patches
		}
		a, b := plan(events), plan(perm)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("order changed the plan:\n%v\n%v\nevents %v\nperm %v", a, b, events, perm)
		}
	})
}
