package restart

import (
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestTrackerRejectsBadInput(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 0)
	before, changes := h.tr.Catalog(), h.tr.Changes()
	if _, err := h.tr.ObserveConfig(Config{Ref: mustRef(dep), Version: "1"}, at(0)); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("workload as config: %v", err)
	}
	if _, err := h.tr.ObserveWorkload(Workload{Ref: mustRef(cfgA)}, at(0)); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("config as workload: %v", err)
	}
	if err := h.tr.Delete(Ref{Kind: "pod", Namespace: "a", Name: "b"}); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("delete pod: %v", err)
	}
	w := workload(dep, "1", nil, cfgA)
	w.Template.Spec = `{"containers":{}}`
	_, err := h.tr.ObserveWorkload(w, at(0))
	if !errors.Is(err, ErrMalformedPodSpec) || !strings.Contains(err.Error(), "deployment/test/test-deployment: spec.template.spec") || !strings.Contains(err.Error(), "containers: want an array") {
		t.Errorf("malformed spec: %v", err)
	}
	if !reflect.DeepEqual(h.tr.Catalog(), before) || !reflect.DeepEqual(h.tr.Changes(), changes) {
		t.Error("bad input changed the tracker")
	}
	if _, err := NewTracker(Options{GracePeriod: -time.Second}); !errors.Is(err, ErrInvalidOptions) || !strings.Contains(err.Error(), "GracePeriod") {
		t.Errorf("negative grace: %v", err)
	}
	if _, err := Plan(Catalog{}, nil, at(0), Options{GracePeriod: -1}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Plan negative grace: %v", err)
	}
}

// A malformed checksums annotation counts as empty (as in the original),
// reported in the observation; the config is recorded without a restart.
func TestMalformedAnnotationCountsAsEmpty(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 0)
	w := workload(dep, "1", nil, cfgA)
	w.Annotations[AnnotationChecksums] = "NOPE"
	obs := h.workload(w, 0)
	if !errors.Is(obs.AnnotationError, ErrMalformedChecksums) || len(obs.Applied) != 0 || !obs.Changed {
		t.Errorf("%+v", obs)
	}
	ps := h.run(0, 6)
	if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "a"}) {
		t.Errorf("%+v", ps)
	}
}

// A pod can only reference configs of its own namespace; checksums of
// configs in other namespaces (or of anything not referenced) are purged,
// with a reason and without a restart.
func TestOtherNamespaceChecksumsPurged(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 0)
	h.config("configmap/other/test", "1", "x", 0)
	h.workload(workload(dep, "1", map[string]string{cfgA: "a", "configmap/other/test": "old", "not a name": "z"}, cfgA), 0)
	ps := h.run(0, 6)
	if len(ps) != 1 || ps[0].Restart || !maps.Equal(ps[0].Checksums, map[string]string{cfgA: "a"}) {
		t.Fatalf("%+v", ps)
	}
	want := []Decision{{"configmap/other/test", ReasonPurgeChecksum}, {"not a name", ReasonPurgeChecksum}}
	if !reflect.DeepEqual(ps[0].Decisions, want) {
		t.Errorf("decisions %+v", ps[0].Decisions)
	}
}

func TestTimestampLayouts(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 0, 5, 250_000_000, time.UTC)
	for _, tc := range []struct {
		opts       Options
		last, want string
	}{
		{Options{}, "", "Mar  1 10:00:05"},
		{Options{}, "Mar  1 10:00:05", "Mar  1 10:00:05.250000000"},
		{Options{}, "Mar  1 10:00:05.250000000", "Mar  1 10:00:05"},
		{Options{Compat: Compat{SameSecondTimestamp: true}}, "Mar  1 10:00:05", "Mar  1 10:00:05"},
		{Options{TimestampLayout: time.RFC3339}, "", "2026-03-01T10:00:05Z"},
		{Options{TimestampLayout: time.RFC3339}, "2026-03-01T10:00:05Z", "2026-03-01T10:00:05.25Z"},
		{Options{TimestampLayout: "15:04"}, "10:00", "10:00.250000000"},
	} {
		if got := timestamp(tc.last, now, tc.opts); got != tc.want {
			t.Errorf("%+v after %q: %q, want %q", tc.opts, tc.last, got, tc.want)
		}
	}
}

// The restart value already in the template (observed) counts as the last
// one: a restart in the same second as an earlier one, by another
// controller instance, still changes the template.
func TestObservedRestartValue(t *testing.T) {
	h := newHarness(t, grace5())
	h.config(cfgA, "1", "a", 0)
	w := workload(dep, "1", map[string]string{cfgA: "old"}, cfgA)
	w.Template = model.PodTemplate{Annotations: map[string]string{AnnotationTimestamp: "Jan  1 00:00:05"}, Spec: w.Template.Spec}
	h.workload(w, 0)
	ps := h.run(5, 5)
	if len(ps) != 1 || ps[0].Timestamp != "Jan  1 00:00:05.000000000" {
		t.Errorf("%+v", ps)
	}
}
