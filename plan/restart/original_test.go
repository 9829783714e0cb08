package restart

import (
	"errors"
	"maps"
	"testing"
)

// The situations of the original controller's own tests (config_agent_test,
// deployment_test, config_test in src/controller), re-expressed against the
// Tracker and Plan with the same outcomes. Fixtures as there: config A is
// configmap/test/test (checksum "abc", updated "bcd"), config B is
// secret/test/test ("def"); the deployment references both and has both
// checksums applied. The original's 100 ms grace period becomes 5 s here.

func deploymentA(version string) Workload {
	return workload(dep, version, map[string]string{cfgA: "abc", cfgB: "def"}, cfgA, cfgB)
}

func TestOriginalAgent(t *testing.T) {
	t.Run("ResourceUpdatedTracksNewConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		if c := h.tr.Catalog().Configs[cfgA]; c.Checksum != "abc" {
			t.Errorf("%+v", c)
		}
	})
	t.Run("ResourceUpdatedUpdatesAlreadyTrackedConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgA, "23456", "bcd", 0)
		if c := h.tr.Catalog().Configs; len(c) != 1 || c[cfgA].Checksum != "bcd" {
			t.Errorf("%+v", c)
		}
	})
	t.Run("ResourceUpdatedDoesNotUpdateConfigWhenVersionIsNotChanged", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgA, "12345", "bcd", 0)
		if c := h.tr.Catalog().Configs[cfgA]; c.Checksum != "abc" {
			t.Errorf("%+v", c)
		}
	})
	t.Run("ResourceUpdatedCreatesAChangeWhenNewConfigIsTracked", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		if c, ok := changeOf(h, cfgA); !ok || c.Observations != 1 {
			t.Errorf("%+v", c)
		}
	})
	t.Run("ResourceUpdatedDoesNotCreateAChangeWhenSameConfigVersionIsObserved", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgA, "12345", "abc", 0)
		if ch := h.tr.Changes(); len(ch) != 1 || ch[cfgA].Observations != 1 {
			t.Errorf("%+v", ch)
		}
	})
	t.Run("ResourceUpdatedDoesNotCreateAChangeWhenConfigWithSameChecksumIsObserved", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgA, "23456", "abc", 0)
		if ch := h.tr.Changes(); len(ch) != 1 || ch[cfgA].Observations != 1 {
			t.Errorf("%+v", ch)
		}
	})
	t.Run("ResourceUpdatedDoesNotTrackIrrelevantDeployments", func(t *testing.T) {
		h := newHarness(t, grace5())
		w := deploymentA("12345")
		delete(w.Annotations, AnnotationEnabled)
		h.workload(w, 0)
		if n := len(h.tr.Catalog().Workloads); n != 0 {
			t.Errorf("%d workloads", n)
		}
	})
	t.Run("ResourceUpdatedCreatesPendingConfigsForThoseReferencedInDeployment", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		c := h.tr.Catalog()
		if len(c.Configs) != 2 || !c.Configs[cfgA].Dummy() || !c.Configs[cfgB].Dummy() {
			t.Errorf("%+v", c.Configs)
		}
		if users := linkedUsers(c); len(users[cfgA]) != 1 || len(users[cfgB]) != 1 {
			t.Errorf("links %v", users)
		}
	})
	t.Run("ResourceUpdatedUnlinksOrphanedDeploymentConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		h.workload(workload(sts, "12345", nil, cfgA, cfgB), 0)
		h.workload(workload(dep, "23456", map[string]string{cfgA: "abc", cfgB: "def"}, cfgA), 0)
		c := h.tr.Catalog()
		if len(c.Configs) != 2 || len(linkedConfigs(c, c.Workloads[dep])) != 1 {
			t.Errorf("%+v", c)
		}
	})
	t.Run("ResourceUpdatedCleansUpOrphanedAndUnusedConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		h.workload(workload(dep, "23456", map[string]string{cfgA: "abc", cfgB: "def"}, cfgA), 0)
		if n := len(h.tr.Catalog().Configs); n != 1 {
			t.Errorf("%d configs", n)
		}
	})
	t.Run("ResourceUpdatedAddingDeploymentIntroducesAChange", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		if n := len(h.tr.Changes()); n != 1 {
			t.Errorf("%d changes", n)
		}
	})
	t.Run("ResourceUpdatedUpdatingADeploymentReferencingSameConfigsDoesNotIntroduceAChange", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		h.workload(deploymentA("23456"), 0)
		if ch := h.tr.Changes(); len(ch) != 1 || ch[dep].Observations != 1 {
			t.Errorf("%+v", ch)
		}
	})
	t.Run("ResourceDeletedCleansUpConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		if err := h.tr.Delete(mustRef(cfgA)); err != nil {
			t.Fatal(err)
		}
		if len(h.tr.Catalog().Configs) != 0 || len(h.tr.Changes()) != 0 {
			t.Error("not cleaned up")
		}
	})
	t.Run("ResourceDeletedCleansUpDeploymentsAndUnusedConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(deploymentA("12345"), 0)
		if err := h.tr.Delete(mustRef(dep)); err != nil {
			t.Fatal(err)
		}
		c := h.tr.Catalog()
		if len(c.Workloads) != 0 || len(c.Configs) != 0 || len(h.tr.Changes()) != 0 {
			t.Error("not cleaned up")
		}
	})
	t.Run("ResourceDeletedCleansUpDeploymentConfigs", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.workload(deploymentA("12345"), 0)
		if err := h.tr.Delete(mustRef(cfgA)); err != nil {
			t.Fatal(err)
		}
		c := h.tr.Catalog()
		if len(c.Configs) != 1 || len(h.tr.Changes()) != 1 || len(linkedConfigs(c, c.Workloads[dep])) != 1 {
			t.Errorf("%+v %+v", c, h.tr.Changes())
		}
	})
	t.Run("ConfigChangesGetProcessedInGracePeriod", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.workload(deploymentA("12345"), 0)
		// Config B is pending: no update needed, nothing patched.
		if ps := h.run(0, 6); len(ps) != 0 || len(h.tr.Changes()) != 0 {
			t.Errorf("%+v %+v", ps, h.tr.Changes())
		}
	})
	t.Run("ConfigChangesOrphanedResourceChangesGetCleanedUp", func(t *testing.T) {
		res, err := Plan(Catalog{}, Changes{"non-existent": {Since: at(0), Observations: 1}}, at(6), grace5())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Processed) != 1 || res.Changes[0].Reason != ReasonOrphanChange || res.Counters.ChangesWaiting != 0 {
			t.Errorf("%+v", res)
		}
	})
	t.Run("ConfigChangesNewDeploymentsGetChecksumUpdatesWithoutRestarts", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "23456", "bcd", 0)
		h.config(cfgB, "67890", "def", 0)
		h.workload(workload(dep, "12345", map[string]string{cfgB: "def"}, cfgA, cfgB), 0)
		ps := h.run(0, 6)
		if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "bcd", cfgB: "def"}) || len(h.tr.Changes()) != 0 {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("ConfigChangesConfigChangeGetDeploymentChecksumsUpdatedWithRestart", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "23456", "bcd", 0)
		h.config(cfgB, "67890", "def", 0)
		h.workload(deploymentA("12345"), 0)
		ps := h.run(0, 6)
		if len(ps) != 1 || !ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "bcd", cfgB: "def"}) || len(h.tr.Changes()) != 0 {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("ConfigChangesConfigChangeCleansUpDeploymentChange", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "23456", "bcd", 0)
		h.workload(deploymentA("12345"), 0)
		h.workload(workload(dep, "23456", map[string]string{}, cfgA, cfgB), 0)
		ps := h.run(0, 6)
		if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "bcd"}) || len(h.tr.Changes()) != 0 {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("ConfigChangesMissingDeploymentAnnotationsGetRestored", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgB, "67890", "def", 0)
		h.workload(deploymentA("12345"), 0)
		h.workload(workload(dep, "23456", map[string]string{cfgB: "def"}, cfgA, cfgB), 0)
		ps := h.run(0, 6)
		if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "abc", cfgB: "def"}) {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("ConfigChangesUnsavedImportantChangesGetAppliedWhenStopped", func(t *testing.T) {
		h := newHarness(t, grace5())
		h.workload(workload(dep, "12345", map[string]string{cfgB: "def"}, cfgA, cfgB), 0)
		h.config(cfgA, "12345", "abc", 0)
		h.config(cfgA, "23456", "bcd", 0)
		res := h.tr.Plan(at(0), true)
		h.tr.Apply(res, nil)
		if len(res.Patches) != 1 || !res.Patches[0].Restart || !maps.Equal(res.Patches[0].Checksums, map[string]string{cfgA: "bcd", cfgB: "def"}) || len(h.tr.Changes()) != 0 {
			t.Errorf("%+v %+v", res.Patches, h.tr.Changes())
		}
	})
	t.Run("ConfigChangesProcessContinuesOnIgnoredErrors", func(t *testing.T) {
		// The failed restart is planned again (the original's
		// behaviour, recording the checksum, is Compat.NoRetry).
		for _, noRetry := range []bool{false, true} {
			h := newHarness(t, Options{GracePeriod: DefaultGracePeriod, Compat: Compat{NoRetry: noRetry}})
			h.config(cfgA, "23456", "bcd", 0)
			h.config(cfgB, "67890", "def", 0)
			h.workload(deploymentA("12345"), 0)
			res := h.tr.Plan(at(5), false)
			h.tr.Apply(res, []error{errors.New("ignore-me")})
			if len(res.Patches) != 1 || !res.Patches[0].Restart {
				t.Fatalf("%+v", res.Patches)
			}
			ps := h.run(5.5, 20)
			if want := map[bool]int{false: 1, true: 0}[noRetry]; restarts(ps) != want {
				t.Errorf("noRetry %v: %d restarts later, want %d", noRetry, restarts(ps), want)
			}
			if c := h.tr.Counters(); c.AnnotationUpdates != 1+len(ps) || c.Restarts != len(ps) {
				t.Errorf("counters %+v", c)
			}
		}
	})
}

// The original's deployment_test: when does a workload need an update.
func TestOriginalNeedsUpdate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		configs map[string]ConfigEntry
		applied map[string]string
		want    bool
	}{
		{"AllConfigsArePending", map[string]ConfigEntry{cfgA: {}}, map[string]string{}, false},
		{"AllConfigsHaveCorrectChecksums", map[string]ConfigEntry{cfgA: {"checksum"}}, map[string]string{cfgA: "checksum"}, false},
		{"ThereIsAConfigWithoutChecksum", map[string]ConfigEntry{cfgA: {"checksum"}}, map[string]string{}, true},
		{"ThereIsAnOrphanedChecksum", map[string]ConfigEntry{cfgA: {"checksum"}}, map[string]string{cfgA: "checksum", "other": "checksome"}, true},
		{"ChecksumDoesNotMatch", map[string]ConfigEntry{cfgA: {"different checksum"}}, map[string]string{cfgA: "checksum"}, true},
	} {
		c := Catalog{Configs: tc.configs, Workloads: map[string]WorkloadEntry{dep: {Ref: mustRef(dep), Refs: []string{cfgA}, Applied: tc.applied}}}
		if got := needsUpdate(c, c.Workloads[dep], linkedConfigs(c, c.Workloads[dep]), Options{}); got != tc.want {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}

// The original's deployment_test on UpdateFromMeta: an update of a known
// workload is a change only when its references or checksums differ.
func TestOriginalWorkloadUpdateIsAChange(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a, b       Workload
		wantChange bool
	}{
		{"SameChecksumsAndReferences", workload(dep, "1", map[string]string{"name1": "value1"}, cfgA), workload(dep, "2", map[string]string{"name1": "value1"}, cfgA), false},
		{"ChecksumsDiffer", workload(dep, "1", map[string]string{"name1": "value1"}, cfgA), workload(dep, "2", map[string]string{"name1": "value1", "name2": "value2"}, cfgA), true},
		{"ReferencesDiffer", workload(dep, "1", nil, cfgA), workload(dep, "2", nil, cfgA, cfgB), true},
		{"SameNumberOfDifferentReferences", workload(dep, "1", nil, cfgA), workload(dep, "2", nil, "configmap/test/other"), true},
	} {
		h := newHarness(t, grace5())
		h.workload(tc.a, 0)
		if obs := h.workload(tc.b, 0); obs.Changed != tc.wantChange {
			t.Errorf("%s: changed %v", tc.name, obs.Changed)
		}
		// The annotation is always taken from the latest observation.
		if got := h.tr.Catalog().Workloads[dep].Applied; len(got) != len(mustParse(tc.b)) {
			t.Errorf("%s: applied %v", tc.name, got)
		}
	}
}

func mustParse(w Workload) map[string]string {
	m, _ := ParseChecksums(w.Annotations[AnnotationChecksums])
	return m
}
