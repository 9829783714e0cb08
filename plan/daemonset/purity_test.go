package daemonset_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// busyState has a write of every kind that carries data: a created
// revision, created pods, an adoption, a status.
func busyState() daemonset.State {
	old := fluentd()
	ds := fluentd(newTemplate, func(ds *model.DaemonSet) {
		ds.Spec.Scheduling.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	})
	orphan := daemonPod("p-1", "n-1", hashOf(old))
	orphan.OwnerReferences = nil
	return daemonset.State{DaemonSet: ds, Nodes: threeNodes(), Pods: []*model.Pod{orphan},
		ControllerRevisions: []*model.ControllerRevision{revisionOf(old, 1)}, Now: t0}
}

// scribble changes everything reachable from the plan's actions.
func scribble(p daemonset.Plan) {
	for i := range p.Actions {
		a := &p.Actions[i]
		if a.Pod != nil {
			a.Pod.Labels["x"] = "y"
			a.Pod.OwnerReferences[0].UID = "x"
		}
		if a.Scheduling != nil {
			a.Scheduling.Tolerations[0].Key = "x"
			a.Scheduling.RequiredNodeAffinity.NodeSelectorTerms[0].MatchFields[0].Values[0] = "x"
			a.Scheduling.NodeSelector["x"] = "y"
		}
		if a.Revision != nil {
			a.Revision.Labels["x"] = "y"
			a.Revision.Template.Labels["x"] = "y"
			a.Revision.Annotations["x"] = "y"
		}
		if a.OwnerReference != nil {
			a.OwnerReference.UID = "x"
		}
		if a.Status != nil {
			a.Status.NumberReady = 99
		}
		if len(a.Reason.Values) > 0 {
			a.Reason.Values[0].Value = 99
		}
	}
	if p.Status != nil {
		p.Status.NumberReady = 99
	}
}

// TestPlanSharesNothing: a caller may change anything a plan returns; the
// State and later plans are not affected.
func TestPlanSharesNothing(t *testing.T) {
	s := busyState()
	before := busyState()
	p, err := daemonset.Sync(s)
	require.NoError(t, err)
	want, _ := daemonset.Sync(busyState())
	require.Empty(t, cmp.Diff(want, p))
	kinds := map[daemonset.ActionKind]bool{}
	for _, a := range p.Actions {
		kinds[a.Kind] = true
	}
	for _, k := range []daemonset.ActionKind{daemonset.CreateControllerRevision, daemonset.CreatePod, daemonset.AdoptPod, daemonset.UpdateDaemonSetStatus} {
		require.True(t, kinds[k], "the state plans a %s", k)
	}
	scribble(p)
	require.Empty(t, cmp.Diff(before, s), "the State is unchanged")
	again, err := daemonset.Sync(s)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want, again), "a later plan is unchanged")
}
