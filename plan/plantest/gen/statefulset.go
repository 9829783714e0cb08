package gen

import (
	"fmt"
	"strconv"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// statefulSetUID is the UID of the sets [StatefulSet] draws.
const statefulSetUID = "web-uid"

// statefulSetTemplate is the template "v<n>" of a drawn set.
func statefulSetTemplate(n int) model.PodTemplate {
	return model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: fmt.Sprintf(`{"containers":[{"image":"nginx:v%d","name":"web"}]}`, n)}
}

// statefulSetRevisionName is the name the planner gives the revision of
// template "v<n>" (collision count 0, the default encoder).
func statefulSetRevisionName(n int) string {
	data, err := statefulset.EncodeTemplate(statefulSetTemplate(n))
	if err != nil {
		panic(err) // a fixed template always encodes
	}
	return statefulset.RevisionName("web", statefulset.HashRevision(data, model.Int32Ptr(0)))
}

// StatefulSet draws a valid, defaulted StatefulSet "web" in namespace
// "default" with up to maxReplicas replicas, template "v0".."v3": either
// management policy; RollingUpdate (with a partition up to maxReplicas+2
// and a maxUnavailable, or without a rollingUpdate block) or OnDelete; no,
// one or two claim templates under any retention policy; a start ordinal;
// minReadySeconds; revisionHistoryLimit; generation; and a stored status
// naming revisions of those templates (or none).
func StatefulSet(maxReplicas int32) *rapid.Generator[*model.StatefulSet] {
	return rapid.Custom(func(t *rapid.T) *model.StatefulSet {
		s := &model.StatefulSet{
			ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: statefulSetUID,
				Generation: rapid.Int64Range(1, 3).Draw(t, "generation"), CreationTimestamp: plantest.Epoch().Add(-time.Hour)},
			Spec: model.StatefulSetSpec{
				Replicas:        model.Int32Ptr(rapid.Int32Range(0, maxReplicas).Draw(t, "replicas")),
				Selector:        &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template:        statefulSetTemplate(rapid.IntRange(0, 3).Draw(t, "template")),
				ServiceName:     "web",
				MinReadySeconds: rapid.SampledFrom([]int32{0, 0, 10, 60}).Draw(t, "minReadySeconds"),
			},
		}
		if rapid.Bool().Draw(t, "parallel") {
			s.Spec.PodManagementPolicy = model.ParallelPodManagement
		}
		switch rapid.IntRange(0, 5).Draw(t, "strategy") {
		case 0:
			s.Spec.UpdateStrategy.Type = model.OnDeleteStatefulSetStrategyType
		case 1:
			s.Spec.UpdateStrategy.Type = model.RollingUpdateStatefulSetStrategyType // no rollingUpdate block
		default:
			ru := &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(rapid.Int32Range(0, maxReplicas+2).Draw(t, "partition"))}
			if mu := rapid.SampledFrom([]string{"", "1", "2", "3", "50%", "100%"}).Draw(t, "maxUnavailable"); mu != "" {
				ru.MaxUnavailable = model.IntOrStringPtr(model.ParseIntOrString(mu))
			}
			s.Spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType, RollingUpdate: ru}
		}
		if rapid.Bool().Draw(t, "startOrdinal") {
			s.Spec.Ordinals = &model.StatefulSetOrdinals{Start: rapid.Int32Range(0, 3).Draw(t, "start")}
		}
		for _, name := range rapid.SampledFrom([][]string{nil, {"data"}, {"data", "logs"}}).Draw(t, "claimTemplates") {
			s.Spec.VolumeClaimTemplates = append(s.Spec.VolumeClaimTemplates, model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: name}, Spec: `{"accessModes":["ReadWriteOnce"]}`})
		}
		policies := []model.PersistentVolumeClaimRetentionPolicyType{model.RetainPersistentVolumeClaimRetentionPolicyType, model.DeletePersistentVolumeClaimRetentionPolicyType}
		s.Spec.PersistentVolumeClaimRetentionPolicy = &model.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenScaled: rapid.SampledFrom(policies).Draw(t, "whenScaled"), WhenDeleted: rapid.SampledFrom(policies).Draw(t, "whenDeleted")}
		s.Spec.RevisionHistoryLimit = model.Int32Ptr(rapid.Int32Range(-1, 3).Draw(t, "revisionHistoryLimit"))
		revision := func(label string) string {
			if n := rapid.IntRange(-1, 3).Draw(t, label); n >= 0 {
				return statefulSetRevisionName(n)
			}
			return ""
		}
		n := rapid.Int32Range(0, maxReplicas+2).Draw(t, "statusReplicas")
		s.Status = model.StatefulSetStatus{ObservedGeneration: rapid.Int64Range(0, s.Generation).Draw(t, "observedGeneration"),
			Replicas: n, ReadyReplicas: n, AvailableReplicas: n, CurrentReplicas: n, UpdatedReplicas: n,
			CurrentRevision: revision("currentRevision"), UpdateRevision: revision("updateRevision"), CollisionCount: model.Int32Ptr(0)}
		return model.DefaultStatefulSet(s)
	})
}

// StatefulSetState draws a whole StatefulSet planner input: a set from
// [StatefulSet], revisions of some of the templates "v0".."v3" (numbered in
// any order, some orphaned), pods at ordinals up to maxReplicas+3 at any of
// those revisions in every phase, readiness, deletion and ownership (owned,
// orphaned, another controller's, deselected, without their pod-name label
// or claim volumes), and claims with every kind of owner. The clock is
// [plantest.Epoch].
func StatefulSetState(maxReplicas int32) *rapid.Generator[statefulset.State] {
	return rapid.Custom(func(t *rapid.T) statefulset.State {
		set := StatefulSet(maxReplicas).Draw(t, "statefulSet")
		now := plantest.Epoch()
		setRef := model.NewControllerRef(model.AppsV1APIVersion, model.StatefulSetKind, "web", statefulSetUID)

		var revs []*model.ControllerRevision
		numbers := rapid.Permutation([]int64{1, 2, 3, 4}).Draw(t, "revisionNumbers")
		for v := range 4 {
			if !rapid.Bool().Draw(t, fmt.Sprintf("revision-v%d", v)) {
				continue
			}
			tmpl := statefulSetTemplate(v)
			data, err := statefulset.EncodeTemplate(tmpl)
			if err != nil {
				t.Fatal(err)
			}
			r := &model.ControllerRevision{
				ObjectMeta: model.ObjectMeta{Name: statefulSetRevisionName(v), Namespace: "default", UID: fmt.Sprintf("rev-v%d", v),
					CreationTimestamp: now.Add(-time.Duration(10-numbers[v]) * time.Minute), Labels: map[string]string{"app": "web"},
					OwnerReferences: []model.OwnerReference{setRef}},
				Template: tmpl, Data: data, Revision: numbers[v],
			}
			if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("orphanRevision-v%d", v)) == 0 {
				r.OwnerReferences = nil
			}
			revs = append(revs, r)
		}

		templates := set.Spec.VolumeClaimTemplates
		var pods []*model.Pod
		for o := range int(maxReplicas) + 4 {
			if !rapid.Bool().Draw(t, fmt.Sprintf("pod-%d", o)) {
				continue
			}
			name := statefulset.PodName("web", o)
			p := &model.Pod{
				ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: "pod-" + name, CreationTimestamp: now.Add(-2 * time.Hour),
					Labels: map[string]string{"app": "web", model.StatefulSetPodNameLabel: name, model.PodIndexLabel: strconv.Itoa(o),
						model.StatefulSetRevisionLabel: statefulSetRevisionName(rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("podRevision-%d", o)))},
					OwnerReferences: []model.OwnerReference{setRef}},
				Spec: model.PodSpec{Hostname: name, Subdomain: "web"},
				Status: model.PodStatus{Phase: model.PodRunning, Conditions: []model.PodCondition{
					{Type: model.PodReady, Status: model.ConditionTrue, LastTransitionTime: now.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, fmt.Sprintf("readyFor-%d", o))) * time.Second)}}},
			}
			for _, tmpl := range templates {
				p.Spec.Volumes = append(p.Spec.Volumes, model.Volume{Name: tmpl.Name, ClaimName: statefulset.ClaimName(tmpl.Name, "web", o)})
			}
			switch rapid.IntRange(0, 7).Draw(t, fmt.Sprintf("podState-%d", o)) {
			case 0:
				p.Status = model.PodStatus{Phase: model.PodPending}
			case 1:
				p.Status.Conditions[0].Status = model.ConditionFalse
			case 2:
				p.Status = model.PodStatus{Phase: model.PodFailed}
			case 3:
				p.DeletionTimestamp = model.TimePtr(now.Add(-time.Second))
			case 4:
				p.Status = model.PodStatus{} // no phase yet
			}
			switch rapid.IntRange(0, 11).Draw(t, fmt.Sprintf("podOwner-%d", o)) {
			case 0:
				p.OwnerReferences = nil
			case 1:
				p.OwnerReferences[0].UID = "another-set"
			case 2:
				p.Labels["app"] = "debug"
			case 3:
				delete(p.Labels, model.StatefulSetPodNameLabel)
			case 4:
				p.Spec.Volumes = nil
			}
			pods = append(pods, p)
		}

		var claims []*model.PersistentVolumeClaim
		for o := range int(maxReplicas) + 4 {
			for _, tmpl := range templates {
				if !rapid.Bool().Draw(t, fmt.Sprintf("claim-%s-%d", tmpl.Name, o)) {
					continue
				}
				name := statefulset.ClaimName(tmpl.Name, "web", o)
				c := &model.PersistentVolumeClaim{ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: "claim-" + name,
					Labels: map[string]string{"app": "web"}}}
				podRef := model.NewControllerRef("v1", "Pod", statefulset.PodName("web", o), "pod-"+statefulset.PodName("web", o))
				switch rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("claimOwner-%s-%d", tmpl.Name, o)) {
				case 0:
					c.OwnerReferences = []model.OwnerReference{setRef}
				case 1:
					c.OwnerReferences = []model.OwnerReference{podRef}
				case 2:
					podRef.UID = "earlier-pod"
					c.OwnerReferences = []model.OwnerReference{podRef}
				case 3:
					c.OwnerReferences = []model.OwnerReference{model.NewControllerRef("example.com/v1", "Operator", "op", "op-uid")}
				case 4:
					c.DeletionTimestamp = model.TimePtr(now)
				}
				claims = append(claims, c)
			}
		}
		return statefulset.State{StatefulSet: set, Pods: pods, ControllerRevisions: revs, Claims: claims, Now: now}
	})
}
