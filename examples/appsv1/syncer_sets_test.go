package appsv1_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

func statefulSetCases(t *testing.T) []appsv1.StatefulSetCase {
	t.Helper()
	var out []appsv1.StatefulSetCase
	for _, l := range readStatefulSetSeeds(t) {
		var c appsv1.StatefulSetCase
		require.NoError(t, json.Unmarshal(l.Case, &c), l.Meta.ID)
		out = append(out, c)
	}
	require.Len(t, out, 200)
	return out
}

func daemonSetCases(t *testing.T) []appsv1.DaemonSetCase {
	t.Helper()
	var out []appsv1.DaemonSetCase
	for _, l := range readDaemonSetSeeds(t) {
		var c appsv1.DaemonSetCase
		require.NoError(t, json.Unmarshal(l.Case, &c), l.Meta.ID)
		out = append(out, c)
	}
	require.Len(t, out, 200)
	return out
}

// requireSame fails unless a Syncer's result is the uncached function's:
// the Output, the Plan (whole values) and the error's message.
func requireSame[O, P any](t *testing.T, id string, wantOut O, wantPlan P, wantErr error, gotOut O, gotPlan P, gotErr error) {
	t.Helper()
	require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "%s: the error", id)
	require.Empty(t, cmp.Diff(wantOut, gotOut), "%s: the Output (-uncached +Syncer)", id)
	require.Empty(t, cmp.Diff(wantPlan, gotPlan), "%s: the Plan (-uncached +Syncer)", id)
}

// TestStatefulSetSyncerMatchesSync: on every public StatefulSet recording
// (testdata/conformance/statefulset), a StatefulSetSyncer's first (cold),
// second and third (warm) syncs give exactly SyncStatefulSet's Output, Plan
// and error; so does one StatefulSetSyncer shared by all cases in turn,
// and one going over them all a second time.
func TestStatefulSetSyncerMatchesSync(t *testing.T) {
	requireSyncerMatches(t, statefulSetCases(t), appsv1.SyncStatefulSet,
		func() func(appsv1.StatefulSetState, ...statefulset.Option) (appsv1.StatefulSetOutput, statefulset.Plan, error) {
			return new(appsv1.StatefulSetSyncer).Sync
		},
		appsv1.NewStatefulSetSyncer().Sync)
}

// TestDaemonSetSyncerMatchesSync: the same for DaemonSetSyncer and
// SyncDaemonSet on every public DaemonSet recording.
func TestDaemonSetSyncerMatchesSync(t *testing.T) {
	requireSyncerMatches(t, daemonSetCases(t), appsv1.SyncDaemonSet,
		func() func(appsv1.DaemonSetState, ...daemonset.Option) (appsv1.Output, daemonset.Plan, error) {
			return new(appsv1.DaemonSetSyncer).Sync
		},
		appsv1.NewDaemonSetSyncer().Sync)
}

// requireSyncerMatches is the check of TestStatefulSetSyncerMatchesSync for
// one kind of set: uncached is the adapter's function, zero returns the
// Sync of a new zero Syncer, shared is one Syncer's, used for every case.
func requireSyncerMatches[C interface{ State() S }, S, Opt, O, P any](t *testing.T, cases []C,
	uncached func(S, ...Opt) (O, P, error), zero func() func(S, ...Opt) (O, P, error), shared func(S, ...Opt) (O, P, error)) {
	t.Helper()
	for round := range 2 {
		for i, c := range cases {
			id := fmt.Sprintf("round %d, case %d", round, i)
			wantOut, wantPlan, wantErr := uncached(c.State())
			if round == 0 {
				own := zero()
				for range 3 {
					out, p, err := own(c.State())
					requireSame(t, id, wantOut, wantPlan, wantErr, out, p, err)
				}
			}
			out, p, err := shared(c.State())
			requireSame(t, id+" (shared)", wantOut, wantPlan, wantErr, out, p, err)
		}
	}
}

// firstWith returns the first case whose plan has an action of kind k.
func firstStatefulSetCaseWith(t *testing.T, k statefulset.ActionKind) appsv1.StatefulSetCase {
	t.Helper()
	for _, c := range statefulSetCases(t) {
		if _, p, _ := appsv1.SyncStatefulSet(c.State()); p.Count(k) > 0 {
			return c
		}
	}
	t.Fatalf("no recorded case plans %s", k)
	return appsv1.StatefulSetCase{}
}

// TestStatefulSetSyncerNewVersion: a set whose template changes with a new
// resourceVersion is converted again (its new revision is named for the new
// template, as SyncStatefulSet names it), one changed without a
// resourceVersion is converted at every call, and the options of the
// Syncer and of the call apply after the adapter's.
func TestStatefulSetSyncerNewVersion(t *testing.T) {
	c := firstStatefulSetCaseWith(t, statefulset.CreateControllerRevision)
	s := c.State()
	var sy appsv1.StatefulSetSyncer
	_, first, err := sy.Sync(s)
	require.NoError(t, err)
	created := func(p statefulset.Plan) string {
		for _, a := range p.Actions {
			if a.Kind == statefulset.CreateControllerRevision {
				return a.Object.Name
			}
		}
		return ""
	}
	set := s.StatefulSet.DeepCopy()
	set.Spec.Template.Spec.Containers[0].Image += "-new"
	set.ResourceVersion += "1"
	s.StatefulSet = set
	_, second, err := sy.Sync(s)
	require.NoError(t, err)
	_, want, _ := appsv1.SyncStatefulSet(s)
	require.NotEqual(t, created(first), created(second))
	require.Equal(t, created(want), created(second))

	set.ResourceVersion = ""
	set.Spec.Template.Spec.Containers[0].Image += "-again"
	_, third, _ := sy.Sync(s)
	_, want, _ = appsv1.SyncStatefulSet(s)
	require.NotEqual(t, created(second), created(third))
	require.Equal(t, created(want), created(third))

	// A caller's encoder replaces the adapter's (and the Syncer's memo).
	enc := statefulset.WithEncoder(statefulset.EncodeTemplate)
	_, withOpt, _ := appsv1.NewStatefulSetSyncer(enc).Sync(s)
	_, wantOpt, _ := appsv1.SyncStatefulSet(s, enc)
	require.Equal(t, created(wantOpt), created(withOpt))
	require.NotEqual(t, created(third), created(withOpt))
	_, withCallOpt, _ := sy.Sync(s, enc)
	require.Equal(t, created(wantOpt), created(withCallOpt))

	// On a warm Syncer, a call's encoder gives the Output, Plan and error
	// of SyncStatefulSet with it: what the Syncer remembers of the
	// adapter's encoding (the revision data and the template it restores)
	// is not used for another encoding.
	for _, c := range statefulSetCases(t) {
		var warm appsv1.StatefulSetSyncer
		_, _, _ = warm.Sync(c.State())
		wantOut, wantPlan, wantErr := appsv1.SyncStatefulSet(c.State(), enc)
		out, p, err := warm.Sync(c.State(), enc)
		requireSame(t, c.StatefulSet.Name, wantOut, wantPlan, wantErr, out, p, err)
	}
}

// TestDaemonSetSyncerNewVersion: the same for a DaemonSet's template (the
// name of the revision it creates).
func TestDaemonSetSyncerNewVersion(t *testing.T) {
	var c appsv1.DaemonSetCase
	for _, dc := range daemonSetCases(t) {
		if _, p, _ := appsv1.SyncDaemonSet(dc.State()); p.Count(daemonset.CreateControllerRevision) > 0 {
			c = dc
			break
		}
	}
	require.NotNil(t, c.DaemonSet, "a recorded case creating a revision")
	created := func(p daemonset.Plan) string {
		for _, a := range p.Actions {
			if a.Kind == daemonset.CreateControllerRevision {
				return a.Object.Name
			}
		}
		return ""
	}
	s := c.State()
	var sy appsv1.DaemonSetSyncer
	_, first, err := sy.Sync(s)
	require.NoError(t, err)
	ds := s.DaemonSet.DeepCopy()
	ds.Spec.Template.Spec.Containers[0].Image += "-new"
	ds.ResourceVersion += "1"
	s.DaemonSet = ds
	_, second, err := sy.Sync(s)
	require.NoError(t, err)
	_, want, _ := appsv1.SyncDaemonSet(s)
	require.NotEqual(t, created(first), created(second))
	require.Equal(t, created(want), created(second))
	ds.ResourceVersion = ""
	ds.Spec.Template.Spec.Containers[0].Image += "-again"
	_, third, _ := sy.Sync(s)
	_, want, _ = appsv1.SyncDaemonSet(s)
	require.NotEqual(t, created(second), created(third))
	require.Equal(t, created(want), created(third))
}

// TestSetSyncersErrors: nil objects fail as with SyncStatefulSet and
// SyncDaemonSet, naming the index, on a cold and on a warm Syncer.
func TestSetSyncersErrors(t *testing.T) {
	ss := statefulSetCases(t)[0].State()
	var ssy appsv1.StatefulSetSyncer
	_, _, err := ssy.Sync(ss)
	require.NoError(t, err)
	for name, st := range map[string]appsv1.StatefulSetState{
		"no set":       {Now: ss.Now},
		"nil pod":      {Now: ss.Now, StatefulSet: ss.StatefulSet, Pods: append(ss.Pods[:len(ss.Pods):len(ss.Pods)], nil)},
		"nil revision": {Now: ss.Now, StatefulSet: ss.StatefulSet, ControllerRevisions: []*apps.ControllerRevision{nil}},
		"nil claim":    {Now: ss.Now, StatefulSet: ss.StatefulSet, PVCs: []*core.PersistentVolumeClaim{nil}},
	} {
		_, _, want := appsv1.SyncStatefulSet(st)
		require.Error(t, want, name)
		_, _, got := ssy.Sync(st)
		require.EqualError(t, got, want.Error(), name)
		_, _, got = appsv1.NewStatefulSetSyncer().Sync(st)
		require.EqualError(t, got, want.Error(), name)
	}
	ds := daemonSetCases(t)[0].State()
	var dsy appsv1.DaemonSetSyncer
	_, _, err = dsy.Sync(ds)
	require.NoError(t, err)
	for name, st := range map[string]appsv1.DaemonSetState{
		"no daemonset": {Now: ds.Now},
		"nil node":     {Now: ds.Now, DaemonSet: ds.DaemonSet, Nodes: append(ds.Nodes[:len(ds.Nodes):len(ds.Nodes)], nil)},
		"nil pod":      {Now: ds.Now, DaemonSet: ds.DaemonSet, Pods: []*core.Pod{nil}},
		"nil revision": {Now: ds.Now, DaemonSet: ds.DaemonSet, ControllerRevisions: []*apps.ControllerRevision{nil}},
	} {
		_, _, want := appsv1.SyncDaemonSet(st)
		require.Error(t, want, name)
		_, _, got := dsy.Sync(st)
		require.EqualError(t, got, want.Error(), name)
		_, _, got = appsv1.NewDaemonSetSyncer().Sync(st)
		require.EqualError(t, got, want.Error(), name)
	}
}

// TestSetSyncersConcurrent: one Syncer of each kind used from several
// goroutines gives each the uncached function's Output.
func TestSetSyncersConcurrent(t *testing.T) {
	ssCases, dsCases := statefulSetCases(t)[:25], daemonSetCases(t)[:25]
	var ssy appsv1.StatefulSetSyncer
	var dsy appsv1.DaemonSetSyncer
	var wg sync.WaitGroup
	errs := make(chan string, 8*25)
	for g := range 4 {
		wg.Go(func() {
			for i, c := range ssCases {
				want, _, _ := appsv1.SyncStatefulSet(c.State())
				got, _, _ := ssy.Sync(c.State())
				if d := cmp.Diff(want, got); d != "" {
					errs <- fmt.Sprintf("goroutine %d, StatefulSet case %d: %s", g, i, d)
				}
			}
			for i, c := range dsCases {
				want, _, _ := appsv1.SyncDaemonSet(c.State())
				got, _, _ := dsy.Sync(c.State())
				if d := cmp.Diff(want, got); d != "" {
					errs <- fmt.Sprintf("goroutine %d, DaemonSet case %d: %s", g, i, d)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
