package statefulset

import (
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// t0 is the clock of most tests.
var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// tmplV is the template of version v ("v1", "v2", ...).
func tmplV(v string) model.PodTemplate {
	return model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: `{"containers":[{"image":"nginx:` + v + `","name":"nginx"}]}`}
}

// setOpt adjusts a test StatefulSet.
type setOpt func(*model.StatefulSet)

// mkSet returns the defaulted StatefulSet "web" in namespace "ns" with the
// given replicas at template v1, OrderedReady, RollingUpdate partition 0.
func mkSet(replicas int32, opts ...setOpt) *model.StatefulSet {
	s := &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "ns", UID: "set-uid", ResourceVersion: "10", Generation: 1, CreationTimestamp: t0.Add(-time.Hour)},
		Spec: model.StatefulSetSpec{
			Replicas:    model.Int32Ptr(replicas),
			Selector:    &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:    tmplV("v1"),
			ServiceName: "nginx",
		},
	}
	s = model.DefaultStatefulSet(s)
	for _, o := range opts {
		o(s)
	}
	return s
}

func parallel(s *model.StatefulSet) { s.Spec.PodManagementPolicy = model.ParallelPodManagement }

func onDelete(s *model.StatefulSet) {
	s.Spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}
}

func partition(p int32) setOpt {
	return func(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = model.Int32Ptr(p) }
}

func template(v string) setOpt { return func(s *model.StatefulSet) { s.Spec.Template = tmplV(v) } }

func minReady(n int32) setOpt { return func(s *model.StatefulSet) { s.Spec.MinReadySeconds = n } }

func claimsFrom(names ...string) setOpt {
	return func(s *model.StatefulSet) {
		for _, n := range names {
			s.Spec.VolumeClaimTemplates = append(s.Spec.VolumeClaimTemplates, model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: n}, Spec: `{"spec":{"accessModes":["ReadWriteOnce"]}}`})
		}
	}
}

func retain(whenScaled, whenDeleted model.PersistentVolumeClaimRetentionPolicyType) setOpt {
	return func(s *model.StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &model.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: whenScaled, WhenDeleted: whenDeleted}
	}
}

// status sets the stored status's revisions (and replicas counts to n).
func status(current, update string, n int32) setOpt {
	return func(s *model.StatefulSet) {
		s.Status = model.StatefulSetStatus{ObservedGeneration: 1, Replicas: n, ReadyReplicas: n, AvailableReplicas: n, CurrentReplicas: n, UpdatedReplicas: n,
			CurrentRevision: current, UpdateRevision: update, CollisionCount: model.Int32Ptr(0)}
	}
}

// rev returns the revision of set "web" recording template v with the
// given number, named as the planner names it.
func rev(v string, number int64) *model.ControllerRevision {
	t := tmplV(v)
	data, err := EncodeTemplate(t)
	if err != nil {
		panic(err)
	}
	ref := model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "set-uid")
	return &model.ControllerRevision{
		ObjectMeta: model.ObjectMeta{Name: revName(v), Namespace: "ns", UID: "rev-" + v, ResourceVersion: "5", CreationTimestamp: t0.Add(-time.Duration(10-number) * time.Minute),
			Labels: map[string]string{"app": "web"}, OwnerReferences: []model.OwnerReference{ref}},
		Template: t, Data: data, Revision: number,
	}
}

// revName is the name the planner gives the revision of template v.
func revName(v string) string {
	data, _ := EncodeTemplate(tmplV(v))
	return RevisionName("web", HashRevision(data, model.Int32Ptr(0)))
}

// podOpt adjusts a test pod.
type podOpt func(*model.Pod)

// mkPod returns pod web-<ordinal> of the set at the revision of template v,
// Running and Ready since an hour before t0.
func mkPod(ordinal int, v string, opts ...podOpt) *model.Pod {
	name := PodName("web", ordinal)
	p := &model.Pod{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "ns", UID: "pod-" + name, ResourceVersion: "3", CreationTimestamp: t0.Add(-2 * time.Hour),
			Labels:          map[string]string{"app": "web", model.StatefulSetPodNameLabel: name, model.PodIndexLabel: strconv.Itoa(ordinal), model.StatefulSetRevisionLabel: revName(v)},
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "set-uid")}},
		Spec: model.PodSpec{NodeName: "node-1", Hostname: name, Subdomain: "nginx"},
		Status: model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{
			{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: t0.Add(-time.Hour)}}},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func pending(p *model.Pod) {
	p.Status = model.PodStatus{Phase: model.PodPending}
}

func notReady(p *model.Pod) {
	p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionFalse, LastTransitionTime: t0.Add(-time.Minute)}}
}

func readySince(t time.Time) podOpt {
	return func(p *model.Pod) {
		p.Status.Conditions = []model.PodCondition{{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: t}}
	}
}

func failed(p *model.Pod) { p.Status = model.PodStatus{Phase: model.PodFailed} }

func terminating(p *model.Pod) { p.DeletionTimestamp = model.TimePtr(t0.Add(-time.Second)) }

func orphan(p *model.Pod) { p.OwnerReferences = nil }

func mounts(templates ...string) podOpt {
	return func(p *model.Pod) {
		_, o := ParseOrdinal(p.Name)
		for _, t := range templates {
			p.Spec.Volumes = append(p.Spec.Volumes, model.Volume{Name: t, ClaimName: ClaimName(t, "web", o)})
		}
	}
}

// claim returns claim <template>-web-<ordinal> with the given owners.
func claim(template string, ordinal int, owners ...model.OwnerReference) *model.PersistentVolumeClaim {
	name := ClaimName(template, "web", ordinal)
	return &model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: name, Namespace: "ns", UID: "claim-" + name, ResourceVersion: "2",
		Labels: map[string]string{"app": "web"}, OwnerReferences: owners}}
}

var setRef = model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", "set-uid")

// kinds lists the kinds and object names of a plan's actions, e.g.
// "CreatePod web-0".
func kinds(p Plan) []string {
	var out []string
	for _, a := range p.Actions {
		s := string(a.Kind) + " " + a.Object.Name
		if a.Error != "" {
			s += " (rejected)"
		}
		out = append(out, s)
	}
	return out
}

// noteCodes lists a plan's note codes.
func noteCodes(p Plan) []ReasonCode {
	out := make([]ReasonCode, 0, len(p.Notes))
	for _, n := range p.Notes {
		out = append(out, n.Code)
	}
	return out
}

func state(set *model.StatefulSet, pods []*model.Pod, revs []*model.ControllerRevision, claims ...*model.PersistentVolumeClaim) State {
	return State{StatefulSet: set, Pods: pods, ControllerRevisions: revs, Claims: claims, Now: t0}
}
