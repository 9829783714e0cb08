package restart

import (
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"
)

// The situations of the seed's "How It Works" section. Each test cites the
// sentence it shows.

func grace5() Options { return Options{GracePeriod: DefaultGracePeriod} }

func changeOf(h *harness, name string) (Change, bool) {
	c, ok := h.tr.Changes()[name]
	return c, ok
}

// "When receiving the information about another config or deployment,
// controller can instantiate a change object. There are several situations
// when it happens:"
func TestSeedChangeSituations(t *testing.T) {
	t.Run("New config is added to the catalog.", func(t *testing.T) {
		h := newHarness(t, grace5())
		if obs := h.config(cfgA, "1", "abc", 0); !obs.Changed {
			t.Error("no change")
		}
		if c, ok := changeOf(h, cfgA); !ok || c.Observations != 1 || !c.Since.Equal(at(0)) {
			t.Errorf("change %+v %v", c, ok)
		}
	})
	t.Run("New deployment is added to the catalog.", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(workload(dep, "1", nil, cfgA), 0)
		h.workload(workload(sts, "1", nil, cfgA), 0)
		if _, ok := changeOf(h, dep); !ok {
			t.Error("no deployment change")
		}
		if _, ok := changeOf(h, sts); !ok {
			t.Error("no statefulset change")
		}
	})
	t.Run("Known deployment references a config that it was not referencing before.", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(workload(dep, "1", nil, cfgA), 0)
		h.run(0, 5)
		if obs := h.workload(workload(dep, "2", nil, cfgA, cfgB), 6); !obs.Changed {
			t.Error("no change")
		}
	})
	t.Run("Known deployment does not reference a config that it was referencing before.", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "1", "abc", 0)
		h.config(cfgB, "1", "def", 0)
		h.workload(workload(dep, "1", map[string]string{cfgA: "abc", cfgB: "def"}, cfgA, cfgB), 0)
		h.run(0, 5)
		if obs := h.workload(workload(dep, "2", map[string]string{cfgA: "abc", cfgB: "def"}, cfgA), 6); !obs.Changed {
			t.Fatal("no change")
		}
		// "Purge checksums that reference unknown configs": the dropped
		// config's checksum leaves the annotation, without a restart.
		ps := h.run(6.5, 11)
		if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "abc"}) {
			t.Errorf("patches %+v", ps)
		}
		if ps[0].Decisions[0] != (Decision{cfgB, ReasonPurgeChecksum}) {
			t.Errorf("decisions %+v", ps[0].Decisions)
		}
	})
	t.Run("Known deployment has its checksums annotation changed.", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "1", "abc", 0)
		h.workload(workload(dep, "1", map[string]string{cfgA: "abc"}, cfgA), 0)
		h.run(0, 5)
		if obs := h.workload(workload(dep, "2", map[string]string{}, cfgA), 6); !obs.Changed {
			t.Error("no change")
		}
	})
	t.Run("Known config has its checksum changed.", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "1", "abc", 0)
		h.run(0, 5)
		if obs := h.config(cfgA, "2", "bcd", 6); !obs.Changed {
			t.Error("no change")
		}
		// A new resourceVersion with the same checksum is no change.
		h.run(6, 11)
		if obs := h.config(cfgA, "3", "bcd", 12); obs.Changed {
			t.Error("same checksum made a change")
		}
	})
}

// "If the resource is changed again during the grace period, the change
// counter gets incremented." and "After the grace period is exhausted, the
// change gets processed": three edits within 5 s give one restart.
func TestSeedGraceCompaction(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "v1", 0)
	h.workload(workload(dep, "1", map[string]string{cfgA: "v1"}, cfgA), 0)
	h.run(0, 9.5)
	h.config(cfgA, "2", "v2", 10)
	h.config(cfgA, "3", "v3", 11)
	h.config(cfgA, "4", "v4", 12)
	if c, _ := changeOf(h, cfgA); c.Observations != 3 || !c.Since.Equal(at(10)) {
		t.Fatalf("change %+v", c)
	}
	// The grace period runs from the first observation: due at 15, not 17.
	if ps := h.run(10, 14.5); len(ps) != 0 {
		t.Fatalf("early patches %+v", ps)
	}
	res := h.pass(15)
	if len(res.Patches) != 1 || !res.Patches[0].Restart || res.Patches[0].Checksums[cfgA] != "v4" {
		t.Fatalf("patches %+v", res.Patches)
	}
	if ps := h.run(15.5, 30); len(ps) != 0 {
		t.Errorf("more patches %+v", ps)
	}
}

// Restart rule 1: "The deployment already has a checksum of the updated
// config in the checksums annotation, and the new checksum of the config is
// different."
func TestSeedRule1(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "v1", 0)
	h.workload(workload(dep, "1", map[string]string{cfgA: "v1"}, cfgA), 0)
	if ps := h.run(0, 7.5); len(ps) != 0 {
		t.Fatalf("patches before the edit %+v", ps)
	}
	h.config(cfgA, "2", "v2", 8)
	ps := h.run(8, 20)
	if len(ps) != 1 || !ps[0].Restart || ps[0].Timestamp != "Jan  1 00:00:13" {
		t.Fatalf("patches %+v", ps)
	}
	if ps[0].Decisions[0] != (Decision{cfgA, ReasonChecksumChanged}) {
		t.Errorf("decisions %+v", ps[0].Decisions)
	}
	// The exact body the original sends (readme-rule1-restart, recorded).
	want := `{"metadata":{"annotations":{"com.xing.deployment-restart.applied-config-checksums":"{\"configmap/test/test\":\"v2\"}"}},"spec":{"template":{"metadata":{"annotations":{"com.xing.deployment-restart.timestamp":"Jan  1 00:00:13"}}}}}`
	if string(ps[0].Body) != want {
		t.Errorf("body %s", ps[0].Body)
	}
}

// Restart rule 2: "The deployment does not have a checksum of the updated
// config in the checksums annotation, but the corresponding change counter
// is greater than one." (readme-rule2-restart: referenced before it exists,
// then updated three times; restart when the deployment's change is due.)
func TestSeedRule2(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edits   int
		restart bool
	}{{"counter 3", 3, true}, {"counter 2", 2, true}, {"counter 1", 1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{GracePeriod: DefaultGracePeriod, Compat: Compat{MissSingleUpdate: true}})
			h.workload(workload(dep, "1", nil, cfgA), 0)
			for i := 0; i < tc.edits; i++ {
				h.config(cfgA, string(rune('2'+i)), string(rune('a'+i)), float64(1+i))
			}
			res := h.pass(5)
			if len(res.Patches) != 1 || res.Patches[0].Restart != tc.restart {
				t.Fatalf("patches %+v", res.Patches)
			}
			want := ReasonRecordChecksum
			if tc.restart {
				want = ReasonChangedAgain
			}
			if r := res.Patches[0].Decisions[0].Reason; r != want {
				t.Errorf("reason %s, want %s", r, want)
			}
		})
	}
}

// Caveat 1: "if some deployment pipeline takes longer than 5 seconds ... to
// update two ConfigMaps that are referenced by the same deployment, the
// deployment will be restarted twice."
func TestSeedCaveat1(t *testing.T) {
	for _, tc := range []struct {
		gap      float64
		restarts int
	}{{6, 2}, {4, 1}} {
		h := newHarness(t, grace5())
		h.config(cfgA, "1", "a1", 0)
		h.config(cfgB, "1", "b1", 0)
		h.workload(workload(dep, "1", map[string]string{cfgA: "a1", cfgB: "b1"}, cfgA, cfgB), 0)
		h.run(0, 9.5)
		h.config(cfgA, "2", "a2", 10)
		var ps []Patch
		for s := 10.0; s <= 30; s += 0.5 {
			if s == 10+tc.gap {
				h.config(cfgB, "2", "b2", s)
			}
			ps = append(ps, h.pass(s).Patches...)
		}
		if got := restarts(ps); got != tc.restarts {
			t.Errorf("gap %vs: %d restarts, want %d (%+v)", tc.gap, got, tc.restarts, ps)
		}
	}
}

// Caveat 2: "a new deployment is added to the cluster. Soon after that, a
// config referenced by that deployment is updated, and while that change is
// being on hold for the grace period, controller gets forcefully
// terminated. ... another instance of the controller will just mark the
// config as already applied to the deployment." Shown by replaying the
// catalog from scratch.
func TestSeedCaveat2(t *testing.T) {
	first := newHarness(t, grace5())
	first.config(cfgA, "1", "v1", 0)
	first.workload(workload(dep, "1", nil, cfgA), 10)
	first.config(cfgA, "2", "v2", 11)
	// Killed at 13: nothing processed. A new instance lists the cluster.
	second := newHarness(t, grace5())
	second.config(cfgA, "2", "v2", 14)
	second.workload(workload(dep, "1", nil, cfgA), 14)
	ps := second.run(14, 25)
	if len(ps) != 1 || ps[0].Restart || ps[0].Checksums[cfgA] != "v2" {
		t.Errorf("patches %+v", ps)
	}
	// Without the kill the first instance restarts (the planner's fix of
	// the single edit; the original needs rule 2 for this).
	if ps := first.run(13, 25); restarts(ps) != 1 {
		t.Errorf("no kill: %+v", ps)
	}
}

// "It also stops restarting a deployment as soon as annotation is removed or
// changed to anything else than enabled."
func TestSeedAnnotationTurnedOff(t *testing.T) {
	for _, value := range []string{"", "disabled", "Enabled"} {
		h := newHarness(t, grace5())
		h.config(cfgA, "1", "v1", 0)
		h.workload(workload(dep, "1", map[string]string{cfgA: "v1"}, cfgA), 0)
		h.run(0, 6)
		off := workload(dep, "2", map[string]string{cfgA: "v1"}, cfgA)
		if value == "" {
			delete(off.Annotations, AnnotationEnabled)
		} else {
			off.Annotations[AnnotationEnabled] = value
		}
		if obs := h.workload(off, 7); obs.Enabled || obs.Changed {
			t.Errorf("%q: %+v", value, obs)
		}
		if len(h.tr.Catalog().Workloads) != 0 {
			t.Errorf("%q: workload still tracked", value)
		}
		h.config(cfgA, "2", "v2", 8)
		if ps := h.run(8, 20); len(ps) != 0 {
			t.Errorf("%q: patches %+v", value, ps)
		}
	}
}

// "on shutdown only changes observed more than once are processed"
// (memoryStateSensitiveChange).
func TestShutdownProcessesRepeatedChanges(t *testing.T) {
	h := newHarness(t, grace5())
	h.workload(workload(dep, "1", nil, cfgA, cfgB), 0)
	h.config(cfgA, "1", "a", 1)
	h.config(cfgA, "2", "b", 2)
	h.config(cfgB, "1", "x", 2)
	res := h.tr.Plan(at(3), true)
	if !slices.Equal(res.Processed, []string{cfgA}) {
		t.Errorf("processed %v", res.Processed)
	}
	if len(res.Patches) != 1 || !res.Patches[0].Restart || !maps.Equal(res.Patches[0].Checksums, map[string]string{cfgA: "b", cfgB: "x"}) {
		t.Errorf("patches %+v", res.Patches)
	}
}

// "a resource seen again at the same resourceVersion is no change"
func TestSameResourceVersion(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 0)
	if obs := h.config(cfgA, "1", "b", 1); !obs.KnownVersion || obs.Changed {
		t.Errorf("%+v", obs)
	}
	if h.tr.Catalog().Configs[cfgA].Checksum != "a" {
		t.Error("checksum updated")
	}
	if got := h.tr.Counters().ResourceVersions; got != 1 {
		t.Errorf("resource versions %d", got)
	}
}

// The requeue-after: the time until the next change is due.
func TestRequeueAfter(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 1)
	h.config(cfgB, "1", "b", 2.5)
	res := h.tr.Plan(at(3), false)
	if res.RequeueAfter != 3*time.Second || !res.NextDue.Equal(at(6)) {
		t.Errorf("requeue %v at %v", res.RequeueAfter, res.NextDue)
	}
	res = h.tr.Plan(at(6), false)
	if !slices.Equal(res.Processed, []string{cfgA}) || res.RequeueAfter != 1500*time.Millisecond {
		t.Errorf("processed %v requeue %v", res.Processed, res.RequeueAfter)
	}
	if !reflect.DeepEqual(res.Counters, Counters{ChangesProcessed: 1, ChangesWaiting: 1, Configs: 2}) {
		t.Errorf("counters %+v", res.Counters)
	}
}

// "A deployment change can only affect the deployment itself, while a config
// change affects all the deployments that reference the config."
func TestSeedAffectedWorkloads(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a1", 0)
	h.workload(workload(dep, "1", map[string]string{cfgA: "a1"}, cfgA), 0)
	h.workload(workload(sts, "1", map[string]string{cfgA: "a1"}, cfgA), 0)
	h.run(0, 6)
	// A config change: both workloads.
	h.config(cfgA, "2", "a2", 10)
	res := h.pass(15)
	if len(res.Changes) != 1 || !slices.Equal(res.Changes[0].Affected, []string{dep, sts}) {
		t.Fatalf("changes %+v", res.Changes)
	}
	if len(res.Patches) != 2 || res.Patches[0].Workload.String() != dep || res.Patches[1].Workload.String() != sts || restarts(res.Patches) != 2 {
		t.Fatalf("patches %+v", res.Patches)
	}
	// A workload change (its annotation lost the checksum): only itself,
	// and without a restart (the original's "missing annotations get
	// restored").
	h.workload(workload(dep, "2", map[string]string{}, cfgA), 20)
	res = h.pass(25)
	if len(res.Changes) != 1 || !slices.Equal(res.Changes[0].Affected, []string{dep}) || len(res.Patches) != 1 || res.Patches[0].Restart {
		t.Fatalf("changes %+v patches %+v", res.Changes, res.Patches)
	}
}
