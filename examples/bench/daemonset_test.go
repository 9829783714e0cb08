package bench

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	upstreamds "k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/util/consistency"
	testingclock "k8s.io/utils/clock/testing"
)

// daemonSetSeedFile: 200 recorded syncs of the v1.36.3 DaemonSet
// controller, the apps/v1 module's conformance data.
const daemonSetSeedFile = "../appsv1/testdata/conformance/daemonset/public-seed1.jsonl"

func loadDaemonSetCases(tb testing.TB) []workloadCase[appsv1.DaemonSetCase] {
	return loadWorkloadCases[appsv1.DaemonSetCase](tb, daemonSetSeedFile)
}

// upstreamDaemonSet is the real DaemonSet controller set up on one case:
// its informer caches hold the case's objects, the clock of its failed-pod
// backoff (which is the controller's clock) is the case's, and its fake
// clientset answers through caseAPI without storing a write. Before every
// sync it gets the state of a controller that has just started, as in the
// recordings: no expectations (its own creates and deletes are never
// observed here, so the second sync would otherwise wait for them), no
// resource versions written (its consistency store, which would otherwise
// wait for its caches to catch up) and an empty failed-pod backoff with
// kube-controller-manager's durations.
type upstreamDaemonSet struct {
	dsc          *upstreamds.DaemonSetsController
	key          string
	name         types.NamespacedName
	consistency  consistency.ConsistencyStore
	now          time.Time
	client       *fake.Clientset
	api          *caseAPI
	sync         func(ctx context.Context, key string) error
	expectations controller.ControllerExpectationsInterface
	backoff      **flowcontrol.Backoff
}

func newUpstreamDaemonSet(ctx context.Context, c appsv1.DaemonSetCase) (*upstreamDaemonSet, error) {
	api := newCaseAPI()
	if err := api.add("daemonsets", c.DaemonSet); err != nil {
		return nil, err
	}
	client := fake.NewClientset()
	client.PrependReactor("*", "*", api.react)
	f := informers.NewSharedInformerFactory(client, 0)
	dsInf, revInf, podInf, nodeInf := f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions(), f.Core().V1().Pods(), f.Core().V1().Nodes()
	name := types.NamespacedName{Namespace: c.DaemonSet.Namespace, Name: c.DaemonSet.Name}
	u := &upstreamDaemonSet{key: name.String(), name: name, now: c.Now, client: client, api: api}
	dsc, err := upstreamds.NewDaemonSetsController(ctx, dsInf, revInf, podInf, nodeInf, client, u.newBackoff())
	if err != nil {
		return nil, err
	}
	u.dsc = dsc
	sync, err := fieldOf[func(context.Context, string) error](dsc, "syncHandler")
	if err != nil {
		return nil, err
	}
	u.sync = *sync
	exp, err := fieldOf[controller.ControllerExpectationsInterface](dsc, "expectations")
	if err != nil {
		return nil, err
	}
	u.expectations = *exp
	cs, err := fieldOf[consistency.ConsistencyStore](dsc, "consistencyStore")
	if err != nil {
		return nil, err
	}
	u.consistency = *cs
	if u.backoff, err = fieldOf[*flowcontrol.Backoff](dsc, "failedPodsBackoff"); err != nil {
		return nil, err
	}
	if err := dsInf.Informer().GetIndexer().Add(c.DaemonSet); err != nil {
		return nil, err
	}
	for _, n := range c.Nodes {
		if err := nodeInf.Informer().GetIndexer().Add(n); err != nil {
			return nil, err
		}
		if err := api.add("nodes", n); err != nil {
			return nil, err
		}
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
	return u, nil
}

// newBackoff is kube-controller-manager's failed-pod backoff (1 s doubling
// to 15 min) on a clock standing at the case's now.
func (u *upstreamDaemonSet) newBackoff() *flowcontrol.Backoff {
	return flowcontrol.NewFakeBackOff(time.Second, 15*time.Minute, testingclock.NewFakeClock(u.now))
}

// run syncs once, as a controller that has just started, and returns the
// writes sent and the sync's error.
func (u *upstreamDaemonSet) run(ctx context.Context) ([]upstreamWrite, error) {
	u.api.reset()
	u.expectations.DeleteExpectations(klog.FromContext(ctx), u.key)
	u.consistency.Clear(u.name, "")
	*u.backoff = u.newBackoff()
	err := u.sync(ctx, u.key)
	ws := writesOf(u.client.Actions(), u.api.rejected)
	u.client.ClearActions()
	return ws, err
}

// stop ends the goroutines of the controller's queues and event
// broadcaster.
func (u *upstreamDaemonSet) stop() {
	for _, name := range []string{"queue", "nodeUpdateQueue"} {
		if q, err := fieldOf[workqueue.TypedRateLimitingInterface[string]](u.dsc, name); err == nil {
			(*q).ShutDown()
		}
	}
	if eb, err := fieldOf[record.EventBroadcaster](u.dsc, "eventBroadcaster"); err == nil {
		(*eb).Shutdown()
	}
}

func upstreamDaemonSets(tb testing.TB) []*upstreamDaemonSet {
	ctx := context.Background()
	var us []*upstreamDaemonSet
	for _, c := range loadDaemonSetCases(tb) {
		u, err := newUpstreamDaemonSet(ctx, c.Case)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(u.stop)
		us = append(us, u)
	}
	return us
}

func benchUpstreamDaemonSet(b *testing.B) {
	ctx := context.Background()
	benchSyncs(b, upstreamDaemonSets(b), false, func(u *upstreamDaemonSet) error {
		_, _ = u.run(ctx) // TestSanityDaemonSetSync compares the errors
		return nil
	})
}

// BenchmarkDaemonSetSync: one sync per recorded DaemonSet state, the real
// controller against the apps/v1 adapter as a controller runs it, one warm
// appsv1.DaemonSetSyncer for all 200 cases: the objects are those of an
// informer's cache, each converted once per (kind, UID, resourceVersion)
// before the timed iterations, with the DaemonSet template's upstream hash
// state and revision data; every sync plans with daemonset.Sync and renders
// the apps/v1 writes (the steady state of a controller, as in the
// Deployment row SyncAdapter).
func BenchmarkDaemonSetSync(b *testing.B) {
	b.Run("upstream", benchUpstreamDaemonSet)
	b.Run("rolloutplan", func(b *testing.B) {
		var syncer appsv1.DaemonSetSyncer
		benchSyncs(b, loadDaemonSetCases(b), true, func(c workloadCase[appsv1.DaemonSetCase]) error {
			_, _, err := syncer.Sync(c.Case.State())
			return err
		})
	})
}

// BenchmarkDaemonSetSyncUncached: the same through appsv1.SyncDaemonSet,
// which remembers nothing: every sync converts every object, hashes and
// encodes the template as upstream does, plans and renders.
func BenchmarkDaemonSetSyncUncached(b *testing.B) {
	b.Run("upstream", benchUpstreamDaemonSet)
	b.Run("rolloutplan", func(b *testing.B) {
		benchSyncs(b, loadDaemonSetCases(b), false, func(c workloadCase[appsv1.DaemonSetCase]) error {
			_, _, err := appsv1.SyncDaemonSet(c.Case.State())
			return err
		})
	})
}

// BenchmarkDaemonSetSyncModel: the same with the cases converted
// beforehand: daemonset.Sync alone, on model types, with its default
// hasher and patcher (which name revisions unlike upstream; the work is
// the same).
func BenchmarkDaemonSetSyncModel(b *testing.B) {
	b.Run("upstream", benchUpstreamDaemonSet)
	b.Run("rolloutplan", func(b *testing.B) {
		var ins []daemonset.State
		for _, c := range loadDaemonSetCases(b) {
			in, err := c.Case.State().Model()
			if err != nil {
				b.Fatal(err)
			}
			ins = append(ins, in)
		}
		benchSyncs(b, ins, false, func(in daemonset.State) error {
			_, err := daemonset.Sync(in)
			return err
		})
	})
}

// TestSanityDaemonSetSync: on every recorded state the real controller
// (run by the benchmark harness) and appsv1.SyncDaemonSet send the same
// writes (verb, resource, name or generateName and node, revision labels
// and numbers, the whole status), in the same order (as multisets where
// the recording says the order varies), and both end with an error or
// neither. Where upstream picks among equal nodes by walking a Go map
// (the recording's choices), each side takes exactly K writes from each
// of the recording's pools and the rest must be equal, as multisets. A
// warm appsv1.DaemonSetSyncer (the benchmark's) sends SyncDaemonSet's
// writes.
func TestSanityDaemonSetSync(t *testing.T) {
	ctx := context.Background()
	choices := 0
	var syncer appsv1.DaemonSetSyncer
	cases := loadDaemonSetCases(t)
	for _, c := range cases {
		_, _, _ = syncer.Sync(c.Case.State())
	}
	for _, c := range cases {
		u, err := newUpstreamDaemonSet(ctx, c.Case)
		require.NoError(t, err, c.ID)
		ws, uerr := u.run(ctx)
		u.stop()
		up := upstreamWorkloadKeys(accepted(ws), false)
		out, _, err := appsv1.SyncDaemonSet(c.Case.State())
		var se *daemonset.SyncError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s: appsv1.SyncDaemonSet: %v", c.ID, err)
			continue
		}
		rp := daemonSetKeys(out)
		warm, _, werr := syncer.Sync(c.Case.State())
		assert.Equal(t, rp, daemonSetKeys(warm), "%s: writes of SyncDaemonSet and of a warm DaemonSetSyncer", c.ID)
		assert.Equal(t, err, werr, c.ID)
		switch {
		case c.Choices:
			choices++
			upRest, upBad := withoutPools(up, c.Pools)
			rpRest, rpBad := withoutPools(rp, c.Pools)
			assert.Empty(t, upBad, "%s (%s): upstream's picks", c.ID, c.Category)
			assert.Empty(t, rpBad, "%s (%s): rolloutplan's picks", c.ID, c.Category)
			assert.Equal(t, upRest, rpRest, "%s (%s): writes outside the recording's pools", c.ID, c.Category)
			assert.Equal(t, sortedCounts(kindCounts(up)), sortedCounts(kindCounts(rp)), "%s (%s): writes of each kind", c.ID, c.Category)
		default:
			if c.Unorder {
				slices.Sort(up)
				slices.Sort(rp)
			}
			assert.Equal(t, up, rp, "%s (%s): writes of upstream and of rolloutplan", c.ID, c.Category)
		}
		assert.Equal(t, uerr != nil, err != nil, "%s: upstream error %v, rolloutplan error %v", c.ID, uerr, err)
	}
	assert.Equal(t, 22, choices, "cases with the recording's choices")
}

// TestSanityDaemonSetSyncRepeat: the benchmark syncs the same harness and
// the same case again and again, which times one sync only if every sync
// gives the first one's answer (where upstream picks among equals at
// random, the same number of writes of each kind).
func TestSanityDaemonSetSyncRepeat(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadDaemonSetCases(t) {
		u, err := newUpstreamDaemonSet(ctx, c.Case)
		require.NoError(t, err, c.ID)
		first, firstErr := u.run(ctx)
		want := upstreamWorkloadKeys(accepted(first), false)
		wantOut, wantPlan, wantRPErr := appsv1.SyncDaemonSet(c.Case.State())
		for round := range 2 {
			ws, err := u.run(ctx)
			got := upstreamWorkloadKeys(accepted(ws), false)
			switch {
			case c.Choices:
				require.Equal(t, kindCounts(want), kindCounts(got), "%s, round %d: upstream's writes of each kind", c.ID, round)
			default:
				if c.Unorder {
					slices.Sort(want)
					slices.Sort(got)
				}
				require.Equal(t, want, got, "%s, round %d: upstream's writes", c.ID, round)
			}
			require.Equal(t, firstErr, err, "%s, round %d: upstream's error", c.ID, round)
			out, p, err := appsv1.SyncDaemonSet(c.Case.State())
			require.Equal(t, wantRPErr, err, "%s, round %d", c.ID, round)
			require.Empty(t, cmp.Diff(wantOut, out), "%s, round %d: the Output", c.ID, round)
			require.Empty(t, cmp.Diff(wantPlan, p), "%s, round %d: the Plan", c.ID, round)
		}
		u.stop()
	}
}

// accepted leaves out the writes the API rejected: the adapter's DaemonSet
// Output lists only the writes that take effect (the recordings also list
// the create of a ControllerRevision whose name is taken, with its error).
func accepted(ws []upstreamWrite) []upstreamWrite {
	var out []upstreamWrite
	for _, w := range ws {
		if !w.Rejected {
			out = append(out, w)
		}
	}
	return out
}
