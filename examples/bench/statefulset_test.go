package bench

import (
	"context"
	"errors"
	"slices"
	"testing"
	_ "unsafe" // go:linkname

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // the defaulting kube-controller-manager registers (see upstreamStatefulSet)
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	upstreamss "k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/util/consistency"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// statefulSetSeedFile: 200 recorded syncs of the v1.36.3 StatefulSet
// controller, the apps/v1 module's conformance data.
const statefulSetSeedFile = "../appsv1/testdata/conformance/statefulset/public-seed1.jsonl"

func loadStatefulSetCases(tb testing.TB) []workloadCase[appsv1.StatefulSetCase] {
	return loadWorkloadCases[appsv1.StatefulSetCase](tb, statefulSetSeedFile)
}

// statefulSetSync is the controller's sync of one key (the work of one
// queue item: adopt orphan revisions, claim pods, then syncStatefulSet).
// The controller has no field holding it, unlike the Deployment and
// DaemonSet controllers, so the harness links to the method.
//
//go:linkname statefulSetSync k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).sync
func statefulSetSync(ssc *upstreamss.StatefulSetController, ctx context.Context, key string) error

// upstreamStatefulSet is the real StatefulSet controller set up on one
// case: its informer caches hold the case's objects, its clock is the
// case's, and its fake clientset answers through caseAPI without storing a
// write, so every sync decides on the recorded state. Before every sync it
// forgets the resource versions its previous sync wrote (its consistency
// store), which its caches never catch up with here; a controller that has
// just started, as in the recordings, has none. The apps and core install
// packages register the API defaulting that kube-controller-manager has:
// the controller defaults a set restored from its latest revision before
// comparing it with the set (StatefulSetSemanticRevisionComparison, on in
// v1.36), and remembers a match per set generation and revision (an LRU
// cache kept from sync to sync, as in a running controller: in the
// benchmark only the first sync of a case pays for that comparison).
type upstreamStatefulSet struct {
	ssc         *upstreamss.StatefulSetController
	key         string
	name        types.NamespacedName
	client      *fake.Clientset
	api         *caseAPI
	consistency consistency.ConsistencyStore
}

func newUpstreamStatefulSet(ctx context.Context, c appsv1.StatefulSetCase) (*upstreamStatefulSet, error) {
	api := newCaseAPI()
	if err := api.add("statefulsets", c.StatefulSet); err != nil {
		return nil, err
	}
	client := fake.NewClientset()
	client.PrependReactor("*", "*", api.react)
	f := informers.NewSharedInformerFactory(client, 0)
	podInf, setInf, pvcInf, revInf := f.Core().V1().Pods(), f.Apps().V1().StatefulSets(), f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions()
	ssc := upstreamss.NewStatefulSetController(ctx, podInf, setInf, pvcInf, revInf, client)
	clk, err := fieldOf[clock.PassiveClock](ssc, "clock")
	if err != nil {
		return nil, err
	}
	*clk = testingclock.NewFakePassiveClock(c.Now)
	cs, err := fieldOf[consistency.ConsistencyStore](ssc, "consistencyStore")
	if err != nil {
		return nil, err
	}
	if err := setInf.Informer().GetIndexer().Add(c.StatefulSet); err != nil {
		return nil, err
	}
	for _, p := range c.Pods {
		if err := podInf.Informer().GetIndexer().Add(p); err != nil {
			return nil, err
		}
		if err := api.add("pods", p); err != nil {
			return nil, err
		}
	}
	for _, r := range c.ControllerRevisions {
		if err := revInf.Informer().GetIndexer().Add(r); err != nil {
			return nil, err
		}
		if err := api.add("controllerrevisions", r); err != nil {
			return nil, err
		}
	}
	for _, pvc := range c.PVCs {
		if err := pvcInf.Informer().GetIndexer().Add(pvc); err != nil {
			return nil, err
		}
		if err := api.add("persistentvolumeclaims", pvc); err != nil {
			return nil, err
		}
	}
	name := types.NamespacedName{Namespace: c.StatefulSet.Namespace, Name: c.StatefulSet.Name}
	return &upstreamStatefulSet{ssc: ssc, key: name.String(), name: name, client: client, api: api, consistency: *cs}, nil
}

// run syncs once and returns the writes sent and the sync's error.
func (u *upstreamStatefulSet) run(ctx context.Context) ([]upstreamWrite, error) {
	u.api.reset()
	u.consistency.Clear(u.name, "")
	err := statefulSetSync(u.ssc, ctx, u.key)
	ws := writesOf(u.client.Actions(), u.api.rejected)
	u.client.ClearActions()
	return ws, err
}

// stop ends the goroutines of the controller's queue and event
// broadcaster.
func (u *upstreamStatefulSet) stop() {
	if q, err := fieldOf[workqueue.TypedRateLimitingInterface[string]](u.ssc, "queue"); err == nil {
		(*q).ShutDown()
	}
	if eb, err := fieldOf[record.EventBroadcaster](u.ssc, "eventBroadcaster"); err == nil {
		(*eb).Shutdown()
	}
}

func upstreamStatefulSets(tb testing.TB) []*upstreamStatefulSet {
	ctx := context.Background()
	var us []*upstreamStatefulSet
	for _, c := range loadStatefulSetCases(tb) {
		u, err := newUpstreamStatefulSet(ctx, c.Case)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(u.stop)
		us = append(us, u)
	}
	return us
}

func benchUpstreamStatefulSet(b *testing.B) {
	ctx := context.Background()
	benchSyncs(b, upstreamStatefulSets(b), false, func(u *upstreamStatefulSet) error {
		_, _ = u.run(ctx) // TestSanityStatefulSetSync compares the errors
		return nil
	})
}

// statefulSetOptions are the options appsv1.SyncStatefulSet plans with.
var statefulSetOptions = []statefulset.Option{statefulset.WithEncoder(appsv1.StatefulSetRevisionData), statefulset.WithRevisionDefaults(appsv1.StatefulSetTemplateDefaults)}

// BenchmarkStatefulSetSync: one sync per recorded StatefulSet state, the
// real controller against the apps/v1 adapter as a controller runs it, one
// warm appsv1.StatefulSetSyncer for all 200 cases: the objects are those of
// an informer's cache, each converted once per (kind, UID,
// resourceVersion) before the timed iterations, with the revision data of
// the set's template and the defaulted revision templates; every sync
// plans with statefulset.Sync and renders the apps/v1 writes. This is the
// steady state of a controller, as in the Deployment row SyncAdapter. The
// adapter ends the five cases whose pod create is rejected with a
// *statefulset.SyncError, as upstream ends them with an error.
func BenchmarkStatefulSetSync(b *testing.B) {
	b.Run("upstream", benchUpstreamStatefulSet)
	b.Run("rolloutplan", func(b *testing.B) {
		var syncer appsv1.StatefulSetSyncer
		benchSyncs(b, loadStatefulSetCases(b), true, func(c workloadCase[appsv1.StatefulSetCase]) error {
			_, _, err := syncer.Sync(c.Case.State())
			return err
		})
	})
}

// BenchmarkStatefulSetSyncUncached: the same through
// appsv1.SyncStatefulSet, which remembers nothing: every sync converts
// every object (the set's template and each revision's data), encodes the
// set's template as upstream's revision data, plans and renders.
func BenchmarkStatefulSetSyncUncached(b *testing.B) {
	b.Run("upstream", benchUpstreamStatefulSet)
	b.Run("rolloutplan", func(b *testing.B) {
		benchSyncs(b, loadStatefulSetCases(b), false, func(c workloadCase[appsv1.StatefulSetCase]) error {
			_, _, err := appsv1.SyncStatefulSet(c.Case.State())
			return err
		})
	})
}

// BenchmarkStatefulSetSyncModel: the same with the cases converted
// beforehand: statefulset.Sync alone, on model types, with the adapter's
// options.
func BenchmarkStatefulSetSyncModel(b *testing.B) {
	b.Run("upstream", benchUpstreamStatefulSet)
	b.Run("rolloutplan", func(b *testing.B) {
		var ins []statefulset.State
		for _, c := range loadStatefulSetCases(b) {
			in, err := c.Case.State().Model()
			if err != nil {
				b.Fatal(err)
			}
			ins = append(ins, in)
		}
		benchSyncs(b, ins, false, func(in statefulset.State) error {
			_, err := statefulset.Sync(in, statefulSetOptions...)
			return err
		})
	})
}

// TestSanityStatefulSetSync: on every recorded state the real controller
// (run by the benchmark harness) and appsv1.SyncStatefulSet send the same
// writes (verb, resource, name, revision labels and numbers, owners of
// updated objects, the whole status, rejection), in the same order (as
// multisets where the recording says the order varies), and both end with
// an error or neither; a warm appsv1.StatefulSetSyncer (the benchmark's)
// sends SyncStatefulSet's writes.
func TestSanityStatefulSetSync(t *testing.T) {
	ctx := context.Background()
	var syncer appsv1.StatefulSetSyncer
	cases := loadStatefulSetCases(t)
	for _, c := range cases {
		_, _, _ = syncer.Sync(c.Case.State())
	}
	for _, c := range cases {
		u, err := newUpstreamStatefulSet(ctx, c.Case)
		require.NoError(t, err, c.ID)
		ws, uerr := u.run(ctx)
		u.stop()
		up := upstreamWorkloadKeys(ws, true)
		out, _, err := appsv1.SyncStatefulSet(c.Case.State())
		var se *statefulset.SyncError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s: appsv1.SyncStatefulSet: %v", c.ID, err)
			continue
		}
		rp := statefulSetKeys(out)
		warm, _, werr := syncer.Sync(c.Case.State())
		assert.Equal(t, rp, statefulSetKeys(warm), "%s: writes of SyncStatefulSet and of a warm StatefulSetSyncer", c.ID)
		assert.Equal(t, err, werr, c.ID)
		if c.Unorder {
			slices.Sort(up)
			slices.Sort(rp)
		}
		assert.Equal(t, up, rp, "%s (%s): writes of upstream and of rolloutplan", c.ID, c.Category)
		assert.Equal(t, uerr != nil, err != nil, "%s: upstream error %v, rolloutplan error %v", c.ID, uerr, err)
	}
}

// TestSanityStatefulSetSyncRepeat: the benchmark syncs the same harness and
// the same case again and again, which times one sync only if every sync
// gives the first one's answer: the harness stores no write and its clock
// stands still, and the adapter remembers nothing.
func TestSanityStatefulSetSyncRepeat(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadStatefulSetCases(t) {
		u, err := newUpstreamStatefulSet(ctx, c.Case)
		require.NoError(t, err, c.ID)
		first, firstErr := u.run(ctx)
		want := upstreamWorkloadKeys(first, true)
		wantOut, wantPlan, wantRPErr := appsv1.SyncStatefulSet(c.Case.State())
		for round := range 2 {
			ws, err := u.run(ctx)
			got := upstreamWorkloadKeys(ws, true)
			if c.Unorder {
				slices.Sort(want)
				slices.Sort(got)
			}
			require.Equal(t, want, got, "%s, round %d: upstream's writes", c.ID, round)
			require.Equal(t, firstErr, err, "%s, round %d: upstream's error", c.ID, round)
			out, p, err := appsv1.SyncStatefulSet(c.Case.State())
			require.Equal(t, wantRPErr, err, "%s, round %d", c.ID, round)
			require.Empty(t, cmp.Diff(wantOut, out), "%s, round %d: the Output", c.ID, round)
			require.Empty(t, cmp.Diff(wantPlan, p), "%s, round %d: the Plan", c.ID, round)
		}
		u.stop()
	}
}
