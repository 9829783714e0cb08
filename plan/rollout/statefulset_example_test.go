package rollout_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// db is a 3-replica StatefulSet rolling out image db:2 with partition 2
// (db-2 updated, db-0 and db-1 kept at db:1), and its ControllerRevisions
// 1 and 2.
func db() (*model.StatefulSet, []*model.ControllerRevision) {
	tmpl := func(image string) model.PodTemplate {
		return model.PodTemplate{Labels: map[string]string{"app": "db"},
			Spec: `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"db"}]}}`}
	}
	s := &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "db", Namespace: "default", UID: "db-uid", Generation: 2},
		Spec: model.StatefulSetSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			Template: tmpl("db:2"),
			UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(2)}},
		},
		Status: model.StatefulSetStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 2, UpdatedReplicas: 1,
			CurrentRevision: "db-5c9f8d7b6", UpdateRevision: "db-7d8b9c6f5"},
	}
	rev := func(hash string, n int64, image, cause string) *model.ControllerRevision {
		r := &model.ControllerRevision{
			ObjectMeta: model.ObjectMeta{Name: "db-" + hash, Namespace: "default",
				Labels:          map[string]string{"app": "db", model.ControllerRevisionHashLabel: hash},
				OwnerReferences: []model.OwnerReference{model.NewControllerRef("apps/v1", "StatefulSet", "db", "db-uid")}},
			Template: tmpl(image), Revision: n,
		}
		if cause != "" {
			r.Annotations = map[string]string{model.ChangeCauseAnnotation: cause}
		}
		return r
	}
	return s, []*model.ControllerRevision{rev("5c9f8d7b6", 1, "db:1", ""), rev("7d8b9c6f5", 2, "db:2", "kubectl set image statefulset/db db=db:2")}
}

func ExampleStatefulSetStatus() {
	s, _ := db()
	msg, done, err := rollout.StatefulSetStatus(s)
	fmt.Printf("%q %v %v\n", msg, done, err)
	s.Spec.UpdateStrategy.RollingUpdate.Partition = model.Int32Ptr(0)
	msg, done, _ = rollout.StatefulSetStatus(s)
	fmt.Printf("%q %v\n", msg, done)
	s.Spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}
	_, done, err = rollout.StatefulSetStatus(s)
	fmt.Println(done, err)
	// Output:
	// "partitioned roll out complete: 1 new pods have been updated...\n" true <nil>
	// "Waiting for partitioned roll out to finish: 1 out of 3 new pods have been updated...\n" false
	// true rollout status is only available for RollingUpdate strategy type
}

func ExampleStatefulSetHistory() {
	s, revs := db()
	out, _ := rollout.StatefulSetHistory(s, revs)
	fmt.Print(out)
	// Output:
	// REVISION  CHANGE-CAUSE
	// 1         <none>
	// 2         kubectl set image statefulset/db db=db:2
}

// Undo to the previous revision sends revision 1's data as a strategic
// merge patch. Here the revisions carry no data, so the patch is their
// template's, as the default encoder writes it; with the apps/v1
// adapter's encoder (examples/appsv1.TemplateJSON) it is byte for byte
// kubectl's.
func ExampleStatefulSetUndo() {
	s, revs := db()
	r, err := rollout.StatefulSetUndo(s, revs, 0, nil)
	fmt.Println(r.Output, r.Target.Name, err)
	fmt.Println(string(r.Patch))
	r, _ = rollout.StatefulSetUndo(s, revs, 2, nil)
	fmt.Println(r.Output)
	_, err = rollout.StatefulSetPause(s)
	fmt.Println(err)
	// Output:
	// rolled back db-5c9f8d7b6 <nil>
	// {"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"db"}},"spec":{"containers":[{"image":"db:1","name":"db"}]}}}}
	// skipped rollback (current template already matches revision 2)
	// pausing is not supported
}
