package bench

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
	"github.com/stretchr/testify/require"
)

// rollingPool is plan/daemonset's BenchmarkSyncNodes state, built here
// from the model (test helpers do not cross packages): a DaemonSet in the
// middle of a rolling update over n nodes, 40% of them on the new
// template, every pod ready and available, maxUnavailable 10%.
func rollingPool(n int) daemonset.State {
	now := time.Date(2025, 4, 2, 10, 0, 0, 0, time.UTC)
	const name, ns, uid = "fluentd", "kube-system", "uid-fluentd"
	tmpl := func(image string) model.PodTemplate {
		return model.PodTemplate{Labels: map[string]string{"name": name},
			Spec: `{"spec":{"containers":[{"image":"` + image + `","name":"fluentd"}]}}`}
	}
	budget := model.FromString("10%")
	surge := model.FromInt(0)
	ds := model.DefaultDaemonSet(&model.DaemonSet{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: ns, UID: uid, Generation: 2, CreationTimestamp: now.Add(-time.Hour),
			Annotations: map[string]string{model.DaemonSetTemplateGenerationAnnotation: "2"}},
		Spec: model.DaemonSetSpec{Selector: &model.LabelSelector{MatchLabels: map[string]string{"name": name}}, Template: tmpl("fluentd:v2"),
			UpdateStrategy: model.DaemonSetUpdateStrategy{Type: model.DaemonSetRollingUpdate,
				RollingUpdate: &model.RollingUpdateDaemonSet{MaxUnavailable: &budget, MaxSurge: &surge}}},
		Status: model.DaemonSetStatus{ObservedGeneration: 2},
	})
	owner := model.NewControllerRef(model.AppsV1APIVersion, model.DaemonSetKind, name, uid)
	s := daemonset.State{DaemonSet: ds, Now: now}
	var hashes []string
	for i, t := range []model.PodTemplate{tmpl("fluentd:v1"), ds.Spec.Template} {
		h := hash.ComputeHash(t, nil)
		hashes = append(hashes, h)
		s.ControllerRevisions = append(s.ControllerRevisions, &model.ControllerRevision{
			ObjectMeta: model.ObjectMeta{Name: name + "-" + h, Namespace: ns, UID: "uid-rev-" + h, CreationTimestamp: now.Add(-time.Hour),
				Labels: map[string]string{"name": name, model.DaemonSetUniqueLabel: h}, OwnerReferences: []model.OwnerReference{owner}},
			Template: t.DeepCopy(), Data: daemonset.DefaultPatch(t), Revision: int64(i + 1)})
	}
	for i := range n {
		node := fmt.Sprintf("node-%05d", i)
		s.Nodes = append(s.Nodes, &model.Node{ObjectMeta: model.ObjectMeta{Name: node, UID: "uid-" + node,
			Labels: map[string]string{"kubernetes.io/hostname": node}}})
		h := hashes[0]
		if i < n*4/10 {
			h = hashes[1]
		}
		pod := fmt.Sprintf("%s-%05d", name, i)
		s.Pods = append(s.Pods, &model.Pod{
			ObjectMeta: model.ObjectMeta{Name: pod, Namespace: ns, UID: "uid-" + pod, CreationTimestamp: now.Add(-2 * time.Hour),
				Labels: map[string]string{"name": name, model.DaemonSetUniqueLabel: h}, OwnerReferences: []model.OwnerReference{owner}},
			Spec: model.PodSpec{NodeName: node},
			Status: model.PodStatus{Phase: model.PodRunning,
				Conditions: []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: now.Add(-time.Hour)}}},
		})
	}
	return s
}

// cpuTime is the CPU time this process has used, user and system: unlike
// the wall clock it does not count the time other processes on a busy
// machine take from it.
func cpuTime(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	require.NoError(tb, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// nsPerNode is the CPU time of one daemonset.Sync of s per node, measured
// over about 200 ms of CPU time (well above the accounting's tick).
func nsPerNode(t *testing.T, s daemonset.State, n int) float64 {
	t.Helper()
	start := cpuTime(t)
	reps := 0
	for cpuTime(t)-start < 200*time.Millisecond {
		_, err := daemonset.Sync(s)
		require.NoError(t, err)
		reps++
	}
	return float64((cpuTime(t) - start).Nanoseconds()) / float64(reps*n)
}

// TestSanityDaemonSetLinear: daemonset.Sync's cost grows linearly with the
// node pool: one sync per node costs at 5 000 nodes at most four times what
// it costs at 100 (a quadratic step would make it fifty times), the best of
// three interleaved rounds of each, in CPU time. The sizes plan what the benchmark says:
// a tenth of the pool's old pods deleted, upstream's burst of 250 at most.
func TestSanityDaemonSetLinear(t *testing.T) {
	sizes := []int{100, 5000}
	best := map[int]float64{}
	states := map[int]daemonset.State{}
	for _, n := range sizes {
		states[n] = rollingPool(n)
		p, err := daemonset.Sync(states[n])
		require.NoError(t, err)
		require.Equal(t, min(n/10, 250), p.Count(daemonset.DeletePod), "%d nodes", n)
		require.Zero(t, p.Count(daemonset.CreatePod), "%d nodes", n)
	}
	for range 3 {
		for _, n := range sizes {
			if v := nsPerNode(t, states[n], n); best[n] == 0 || v < best[n] {
				best[n] = v
			}
		}
	}
	t.Logf("ns per node: %.0f at 100 nodes, %.0f at 5 000", best[100], best[5000])
	require.Less(t, best[5000], 4*best[100], "ns per node at 5 000 nodes against 100")
}
