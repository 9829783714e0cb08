package replicaset

import (
	"errors"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"github.com/rolloutplan/rolloutplan/model"
)

// syncError returns the *SyncError that Sync's err holds, or nil when err is
// nil; any other error (invalid input) fails the test. t is a *testing.T or
// a *rapid.T.
func syncError(t interface {
	Helper()
	Fatalf(format string, args ...any)
}, err error) *SyncError {
	t.Helper()
	if err == nil {
		return nil
	}
	var serr *SyncError
	if !errors.As(err, &serr) {
		t.Fatalf("Sync: %v; want nil or a *SyncError", err)
	}
	return serr
}

// t0 is the fixed "now" of most tests; objects read from a cluster carry
// whole seconds, so it does too.
var t0 = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

// needReason refuses a table case without a name or a one-line reason, so
// that every hand-checked value says where it comes from.
func needReason(t *testing.T, name, reason string) {
	t.Helper()
	casetest.Require(t, name, reason)
}

type podOpt func(*model.Pod)

// mkPod builds an active pod of namespace "ns" labelled app=web, Pending,
// unscheduled, not ready, created at t0-1h, UID "uid-"+name.
func mkPod(name string, opts ...podOpt) *model.Pod {
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: "ns", UID: "uid-" + name,
			CreationTimestamp: t0.Add(-time.Hour),
			Labels:            map[string]string{"app": "web"},
		},
		Status: model.PodStatus{Phase: model.PodPending},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func onNode(n string) podOpt { return func(p *model.Pod) { p.Spec.NodeName = n } }
func phase(ph model.PodPhase) podOpt {
	return func(p *model.Pod) { p.Status.Phase = ph }
}
func uid(u string) podOpt { return func(p *model.Pod) { p.UID = u } }

// running puts the pod on node n, Running and Ready since t.
func running(n string, readySince time.Time) podOpt {
	return func(p *model.Pod) {
		p.Spec.NodeName = n
		p.Status.Phase = model.PodRunning
		p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: readySince}}
	}
}

// runningNotReady puts the pod on node n, Running with Ready False.
func runningNotReady(n string) podOpt {
	return func(p *model.Pod) {
		p.Spec.NodeName = n
		p.Status.Phase = model.PodRunning
		p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: t0.Add(-time.Minute)}}
	}
}

func restarts(n int32) podOpt {
	return func(p *model.Pod) {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, model.ContainerStatus{Name: "c", RestartCount: n})
	}
}
func created(t time.Time) podOpt { return func(p *model.Pod) { p.CreationTimestamp = t } }
func cost(v string) podOpt {
	return func(p *model.Pod) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[model.PodDeletionCostAnnotation] = v
	}
}
func labels(kv ...string) podOpt {
	return func(p *model.Pod) {
		p.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}
func ownedBy(rs *model.ReplicaSet) podOpt {
	return func(p *model.Pod) {
		p.OwnerReferences = []model.OwnerReference{model.NewControllerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID)}
	}
}
func deleting(t time.Time) podOpt {
	return func(p *model.Pod) { p.DeletionTimestamp = &t }
}
func inNamespace(ns string) podOpt { return func(p *model.Pod) { p.Namespace = ns } }

// mkRS builds ReplicaSet name in "ns" with selector and template labels
// app=web, generation 1 (observed), controlled by Deployment "web" (uid
// "dep-web").
func mkRS(name string, replicas int32) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: name, Namespace: "ns", UID: "rs-" + name, Generation: 1, ResourceVersion: "7",
			OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "dep-web")},
		},
		Spec: model.ReplicaSetSpec{
			Replicas: model.Int32Ptr(replicas),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{
				Labels:      map[string]string{"app": "web"},
				Annotations: map[string]string{"team": "a"},
				Spec:        `{"containers":[{"image":"nginx","name":"web"}]}`,
			},
		},
		Status: model.ReplicaSetStatus{ObservedGeneration: 1},
	}
}

// owned returns pods with ownedBy(rs) applied.
func owned(rs *model.ReplicaSet, pods ...*model.Pod) []*model.Pod {
	for _, p := range pods {
		ownedBy(rs)(p)
	}
	return pods
}

// names lists the Name of every action of kind k, in plan order.
func names(p Plan, k ActionKind) []string {
	var out []string
	for _, a := range p.Actions {
		if a.Kind == k {
			out = append(out, a.Name)
		}
	}
	return out
}

func deepCopyPods(pods []*model.Pod) []*model.Pod {
	out := make([]*model.Pod, len(pods))
	for i, p := range pods {
		out[i] = p.DeepCopy()
	}
	return out
}

func deepCopyRSs(rss []*model.ReplicaSet) []*model.ReplicaSet {
	out := make([]*model.ReplicaSet, len(rss))
	for i, r := range rss {
		out[i] = r.DeepCopy()
	}
	return out
}
