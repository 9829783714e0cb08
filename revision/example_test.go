package revision_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func oldRS(name, rev string, spec, status int32) *model.ReplicaSet {
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name:              name,
			CreationTimestamp: t0,
			Annotations:       map[string]string{model.RevisionAnnotation: rev},
		},
		Spec:   model.ReplicaSetSpec{Replicas: model.Int32Ptr(spec)},
		Status: model.ReplicaSetStatus{Replicas: status},
	}
}

func ExampleToDelete() {
	// Four old ReplicaSets and revisionHistoryLimit 1: three must go, lowest
	// revision first. Revision 2 still has a pod, so it is skipped, and
	// revision 4 does not take its place: only two go in this sync, and a
	// later one deletes revision 2 once it has drained.
	old := []*model.ReplicaSet{
		oldRS("web-4", "4", 0, 0),
		oldRS("web-1", "1", 0, 0),
		oldRS("web-3", "3", 0, 0),
		oldRS("web-2", "2", 0, 1),
	}
	for _, rs := range revision.ToDelete(old, model.Int32Ptr(1)) {
		fmt.Println("delete", rs.Name)
	}
	// Output:
	// delete web-1
	// delete web-3
}

func ExampleRollbackTarget() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", UID: "uid-web"},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image=web:3"},
		},
	}
	rs := func(rev, image string, age time.Duration) *model.ReplicaSet {
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{
				Name:              "web-" + rev,
				UID:               "uid-" + rev,
				CreationTimestamp: t0.Add(age),
				Labels:            map[string]string{"app": "web"},
				Annotations:       map[string]string{model.RevisionAnnotation: rev},
				OwnerReferences:   []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, "web", "uid-web")},
			},
			Spec: model.ReplicaSetSpec{Template: model.PodTemplate{
				Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "h" + rev},
				Spec:   "image=" + image,
			}},
		}
	}
	owned := []*model.ReplicaSet{rs("1", "web:1", 0), rs("2", "web:2", time.Hour), rs("3", "web:3", 2*time.Hour)}

	for _, to := range []int64{0, 1, 3, 7} {
		target, err := revision.RollbackTarget(d, owned, to)
		switch {
		case errors.Is(err, revision.ErrAlreadyCurrent):
			fmt.Printf("undo --to-revision=%d: deployment.apps/web %v\n", to, err)
		case err != nil:
			fmt.Printf("undo --to-revision=%d: error: %v\n", to, err)
		default:
			fmt.Printf("undo --to-revision=%d: restore %s (%s)\n", to, target.Name, revision.RollbackTemplate(target).Spec)
		}
	}
	// Output:
	// undo --to-revision=0: restore web-2 (image=web:2)
	// undo --to-revision=1: restore web-1 (image=web:1)
	// undo --to-revision=3: deployment.apps/web skipped rollback (current template already matches revision 3)
	// undo --to-revision=7: error: unable to find specified revision 7 in history
}

func ExampleSetNewReplicaSetAnnotations() {
	// An old ReplicaSet becomes new again after a rollback: it takes the next
	// revision and remembers its former one.
	d := &model.Deployment{ObjectMeta: model.ObjectMeta{Annotations: map[string]string{
		model.ChangeCauseAnnotation: "rollback to v1",
	}}}
	rs := oldRS("web-1", "1", 0, 0)
	next := fmt.Sprint(revision.MaxRevision([]*model.ReplicaSet{oldRS("web-2", "2", 0, 0), oldRS("web-3", "3", 3, 3)}) + 1)
	changed := revision.SetNewReplicaSetAnnotations(d, rs, next, model.MaxRevisionHistoryLength)
	fmt.Println(changed, rs.Annotations[model.RevisionAnnotation], rs.Annotations[model.RevisionHistoryAnnotation], rs.Annotations[model.ChangeCauseAnnotation])
	// Output:
	// true 4 1 rollback to v1
}
