package appsv1_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// The Syncers check a template's pod spec once per object version and tell
// the planner when every template passed: a template the API server would
// refuse (restartPolicy Never, upstream ValidatePodTemplateSpecForReplicaSet;
// no containers, upstream validateContainers) must still be refused, with
// Sync's error, on a cold and on a warm Syncer, and after a new version of
// another object.

// TestSyncerRefusesInvalidPodSpecs: the Deployment Syncer, with the bad
// template on the Deployment, on a ReplicaSet only, and on a new version of
// the Deployment that takes its template from a cached ReplicaSet.
func TestSyncerRefusesInvalidPodSpecs(t *testing.T) {
	never := func(t *core.PodTemplateSpec) { t.Spec.RestartPolicy = core.RestartPolicyNever }
	noContainers := func(t *core.PodTemplateSpec) { t.Spec.Containers = nil }
	withRS := func(edit func(*core.PodTemplateSpec)) appsv1.State {
		s := syncerState()
		rs := &apps.ReplicaSet{}
		rs.Name, rs.Namespace, rs.UID, rs.ResourceVersion = "web-old", "default", "rs-1", "3"
		rs.Spec.Replicas = new(int32(1))
		rs.Spec.Selector = s.Deployment.Spec.Selector
		rs.Spec.Template = *s.Deployment.Spec.Template.DeepCopy()
		edit(&rs.Spec.Template)
		s.ReplicaSets = []*apps.ReplicaSet{rs}
		return s
	}
	for _, c := range []struct {
		name  string
		state func() appsv1.State
		field string
	}{
		{"Deployment restartPolicy Never", func() appsv1.State {
			s := syncerState()
			never(&s.Deployment.Spec.Template)
			return s
		}, "deployment.spec.template.spec.restartPolicy"},
		{"Deployment without containers", func() appsv1.State {
			s := syncerState()
			noContainers(&s.Deployment.Spec.Template)
			return s
		}, "deployment.spec.template.spec.containers"},
		{"ReplicaSet restartPolicy Never", func() appsv1.State { return withRS(never) }, "replicaSets[0]): spec.template.spec.restartPolicy"},
		{"ReplicaSet and Deployment without containers", func() appsv1.State {
			s := withRS(noContainers)
			noContainers(&s.Deployment.Spec.Template)
			return s
		}, "deployment.spec.template.spec.containers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, want := appsv1.Sync(c.state())
			require.ErrorContains(t, want, c.field)
			var sy appsv1.Syncer
			for round := range 4 {
				s := c.state()
				if round >= 2 { // a new version of the Deployment, template unchanged
					s.Deployment.ResourceVersion += "0"
				}
				if round == 3 { // that version alone: its own verdict counts
					s.ReplicaSets = nil
					_, _, want = appsv1.Sync(s)
				}
				_, _, got := sy.Sync(s)
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(got), "round %d", round)
			}
		})
	}
	// A valid state still plans as Sync does on a warm Syncer, and the
	// verdict of one version does not stick to the next.
	var sy appsv1.Syncer
	s := syncerState()
	_, _, err := sy.Sync(s)
	require.NoError(t, err)
	s = syncerState()
	s.Deployment.ResourceVersion = "8"
	never(&s.Deployment.Spec.Template)
	_, _, err = sy.Sync(s)
	require.ErrorContains(t, err, "deployment.spec.template.spec.restartPolicy")
}

// TestSetSyncersRefuseInvalidPodSpecs: the StatefulSet and DaemonSet
// Syncers refuse a recorded set whose template has restartPolicy Never
// (upstream ValidateStatefulSetSpec, ValidateDaemonSetSpec) as the
// uncached functions do, cold and warm, and plan it again once a new
// version fixes it.
func TestSetSyncersRefuseInvalidPodSpecs(t *testing.T) {
	ss := statefulSetCases(t)[0].State()
	ss.StatefulSet = ss.StatefulSet.DeepCopy()
	ss.StatefulSet.Spec.Template.Spec.RestartPolicy = core.RestartPolicyNever
	_, _, want := appsv1.SyncStatefulSet(ss)
	require.ErrorContains(t, want, "statefulSet.spec.template.spec.restartPolicy")
	var ssy appsv1.StatefulSetSyncer
	for round := range 2 {
		_, _, got := ssy.Sync(ss)
		require.EqualError(t, got, want.Error(), fmt.Sprintf("StatefulSet, round %d", round))
	}
	ss.StatefulSet.Spec.Template.Spec.RestartPolicy = core.RestartPolicyAlways
	ss.StatefulSet.ResourceVersion += "0"
	_, _, err := ssy.Sync(ss)
	require.NoError(t, err, "the fixed StatefulSet")

	ds := daemonSetCases(t)[0].State()
	ds.DaemonSet = ds.DaemonSet.DeepCopy()
	ds.DaemonSet.Spec.Template.Spec.RestartPolicy = core.RestartPolicyNever
	_, _, want = appsv1.SyncDaemonSet(ds)
	require.ErrorContains(t, want, "daemonSet.spec.template.spec.restartPolicy")
	var dsy appsv1.DaemonSetSyncer
	for round := range 2 {
		_, _, got := dsy.Sync(ds)
		require.EqualError(t, got, want.Error(), fmt.Sprintf("DaemonSet, round %d", round))
	}
	ds.DaemonSet.Spec.Template.Spec.RestartPolicy = core.RestartPolicyAlways
	ds.DaemonSet.ResourceVersion += "0"
	_, _, err = dsy.Sync(ds)
	require.NoError(t, err, "the fixed DaemonSet")
}
