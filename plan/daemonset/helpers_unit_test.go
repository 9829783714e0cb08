package daemonset_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

func TestDefaultPatch(t *testing.T) {
	a := model.PodTemplate{Labels: map[string]string{"b": "2", "a": "1"}, Spec: `{"spec":{"replicas":12345678901234567890,"x":"y"}}`}
	b := model.PodTemplate{Labels: map[string]string{"a": "1", "b": "2"}, Spec: a.Spec}
	assert.Equal(t, daemonset.DefaultPatch(a), daemonset.DefaultPatch(b), "equal templates give equal data")
	assert.Equal(t, `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"a":"1","b":"2"}},"spec":{"replicas":12345678901234567890,"x":"y"}}}}`,
		daemonset.DefaultPatch(a), "upstream getPatch's shape: spec.template with $patch replace; numbers kept as written")
	b.Labels["a"] = "other"
	assert.NotEqual(t, daemonset.DefaultPatch(a), daemonset.DefaultPatch(b))
	assert.Equal(t, `{"spec":{"template":{"$patch":"replace","spec":"not json"}}}`, daemonset.DefaultPatch(model.PodTemplate{Spec: "not json"}))
}

func TestIsPodUpdated(t *testing.T) {
	gen := int64(3)
	pod := func(labels map[string]string) *model.Pod {
		return &model.Pod{ObjectMeta: model.ObjectMeta{Labels: labels}}
	}
	for _, c := range []struct {
		name, why string
		pod       *model.Pod
		hash      string
		gen       *int64
		want      bool
	}{
		{"hash", "util.IsPodUpdated: the controller-revision-hash label", pod(map[string]string{model.DaemonSetUniqueLabel: "h"}), "h", nil, true},
		{"generation", "util.IsPodUpdated: pod-template-generation for pods of old controllers", pod(map[string]string{model.DaemonSetTemplateGenerationLabel: "3"}), "h", &gen, true},
		{"neither", "util.IsPodUpdated", pod(map[string]string{model.DaemonSetUniqueLabel: "g", model.DaemonSetTemplateGenerationLabel: "2"}), "h", &gen, false},
		{"empty hash", "util.IsPodUpdated: an empty hash matches nothing", pod(map[string]string{}), "", nil, false},
	} {
		assert.Equal(t, c.want, daemonset.IsPodUpdated(c.pod, c.hash, c.gen), "%s: %s", c.name, c.why)
	}
}

func TestCalculateStatus(t *testing.T) {
	ds := fluentd(func(ds *model.DaemonSet) { ds.Spec.MinReadySeconds = 10 })
	h := hashOf(ds)
	placements := []daemonset.Placement{
		{Node: "n-1", ShouldRun: true, ShouldContinueRunning: true},
		{Node: "n-2", ShouldRun: true, ShouldContinueRunning: true},
		{Node: "n-3", ShouldRun: true, ShouldContinueRunning: true},
		{Node: "n-4", ShouldContinueRunning: true},
	}
	byNode := map[string][]*model.Pod{
		// The oldest pod decides (updateDaemonSetStatus sorts by creation).
		"n-1": {daemonPod("young", "n-1", h, createdAt(t0.Add(-time.Minute))), daemonPod("old", "n-1", "other")},
		"n-2": {daemonPod("fresh", "n-2", h, readySince(t0.Add(-5*time.Second)))},
		"n-4": {daemonPod("stray", "n-4", h)},
	}
	st := daemonset.CalculateStatus(ds, placements, byNode, h, t0)
	assert.Equal(t, int32(3), st.DesiredNumberScheduled)
	assert.Equal(t, int32(2), st.CurrentNumberScheduled)
	assert.Equal(t, int32(1), st.NumberMisscheduled)
	assert.Equal(t, int32(2), st.NumberReady)
	assert.Equal(t, int32(1), st.NumberAvailable, "fresh is ready for 5s of 10")
	assert.Equal(t, int32(1), st.UpdatedNumberScheduled, "n-1's oldest pod is of another revision")
	assert.Equal(t, int32(2), st.NumberUnavailable)
}
