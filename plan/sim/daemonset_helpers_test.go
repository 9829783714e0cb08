package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
)

// dsSet is the seed's fluentd-elasticsearch DaemonSet (seed 004, section
// 4, "Writing a DaemonSet spec"), reduced to what the controller reads,
// with maxUnavailable (or maxSurge) as given.
func dsSet(opts ...func(*model.DaemonSet)) *model.DaemonSet {
	ds := &model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: "fluentd", Namespace: "kube-system", UID: "fluentd-uid"},
		Spec: model.DaemonSetSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"name": "fluentd"}},
			Template: model.PodTemplate{Labels: map[string]string{"name": "fluentd"}, Spec: dsImage("fluentd:v1")},
		},
	}
	for _, o := range opts {
		o(ds)
	}
	return ds
}

func dsImage(name string) string { return `{"containers":[{"image":"` + name + `","name":"fluentd"}]}` }

// rolling sets a RollingUpdate with the given maxUnavailable and maxSurge.
func rolling(maxUnavailable, maxSurge string) func(*model.DaemonSet) {
	return func(ds *model.DaemonSet) {
		ds.Spec.UpdateStrategy = model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate, RollingUpdate: &model.RollingUpdateDaemonSet{
			MaxUnavailable: model.IntOrStringPtr(model.ParseIntOrString(maxUnavailable)),
			MaxSurge:       model.IntOrStringPtr(model.ParseIntOrString(maxSurge)),
		}}
	}
}

func minReady(s int32) func(*model.DaemonSet) {
	return func(ds *model.DaemonSet) { ds.Spec.MinReadySeconds = s }
}

// pool returns n nodes named n-1 ... n-n.
func pool(n int) []*model.Node {
	out := make([]*model.Node, n)
	for i := range out {
		out[i] = &model.Node{ObjectMeta: model.ObjectMeta{Name: fmt.Sprintf("n-%d", i+1), Labels: map[string]string{"pool": "general"}}}
	}
	return out
}

// updateTo is a template change once the rollout is complete.
func updateTo(img string) Event {
	return Event{When: WhenComplete, Action: Action{Kind: SetTemplateSpec, Spec: dsImage(img), Description: "set image " + img}}
}

func mustRunDS(t testing.TB, cfg DaemonSetConfig) *DaemonSetTrace {
	t.Helper()
	tr, err := RunDaemonSet(cfg)
	require.NoError(t, err)
	for _, s := range tr.Steps {
		for _, v := range s.Violations {
			if v.Quirk == "" {
				t.Errorf("sync %d: %s", s.Sync, v)
			}
		}
	}
	return tr
}

// lastDSStep is the trace's last step.
func lastDSStep(tr *DaemonSetTrace) DaemonSetStep { return tr.Steps[len(tr.Steps)-1] }

// what lists the "what happened" of every step from sync from on.
func what(tr *DaemonSetTrace, from int) []string {
	var out []string
	for _, s := range tr.Steps {
		if s.Sync < from {
			continue
		}
		if w, _ := s.describe(); w != "" {
			out = append(out, fmt.Sprintf("%d: %s", s.Sync, w))
		}
	}
	return out
}
