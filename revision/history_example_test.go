package revision_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// History lists what kubectl rollout history prints: one entry per revision
// of the ReplicaSets d controls, oldest revision first.
func ExampleHistory() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:2"},
		},
	}
	owner := []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "web-uid")}
	v1 := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-6d4", Namespace: "default", UID: "rs-1", OwnerReferences: owner,
			Labels:            map[string]string{"app": "web"},
			Annotations:       map[string]string{model.RevisionAnnotation: "1"},
			CreationTimestamp: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)},
		Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(0),
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:1"}},
	}
	v2 := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-7f9", Namespace: "default", UID: "rs-2", OwnerReferences: owner,
			Labels: map[string]string{"app": "web"},
			Annotations: map[string]string{model.RevisionAnnotation: "2",
				model.ChangeCauseAnnotation: "kubectl set image deployment/web web=web:2"},
			CreationTimestamp: time.Date(2026, 1, 1, 11, 0, 0, 0, time.UTC)},
		Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(3),
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:2"}},
	}
	entries, err := revision.History(d, []*model.ReplicaSet{v2, v1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("REVISION  CHANGE-CAUSE")
	for _, e := range entries {
		cause := e.ChangeCause
		if cause == "" {
			cause = "<none>"
		}
		fmt.Printf("%-9d %s\n", e.Revision, cause)
	}
	// Output:
	// REVISION  CHANGE-CAUSE
	// 1         <none>
	// 2         kubectl set image deployment/web web=web:2
}

// Undo plans kubectl rollout undo: the template of the chosen revision and
// the annotations the Deployment gets. Revision 0 means the previous one.
func ExampleUndo() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid",
			Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: model.DeploymentSpec{
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "image: web:2"},
		},
	}
	owner := []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "web", "web-uid")}
	v1 := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-6d4", Namespace: "default", UID: "rs-1", OwnerReferences: owner,
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{model.RevisionAnnotation: "1"}},
		Spec: model.ReplicaSetSpec{Template: model.PodTemplate{Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "6d4"}, Spec: "image: web:1"}},
	}
	v2 := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "web-7f9", Namespace: "default", UID: "rs-2", OwnerReferences: owner,
			Labels: map[string]string{"app": "web"}, Annotations: map[string]string{model.RevisionAnnotation: "2"}},
		Spec: model.ReplicaSetSpec{Template: model.PodTemplate{Labels: map[string]string{"app": "web", model.PodTemplateHashLabel: "7f9"}, Spec: "image: web:2"}},
	}
	rss := []*model.ReplicaSet{v1, v2}

	patch, err := revision.Undo(d, rss, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("target:", patch.Target.Name)
	fmt.Println("template:", model.FormatLabels(patch.Template.Labels), patch.Template.Spec)

	_, err = revision.Undo(d, rss, 7)
	fmt.Println(err)
	var notFound *revision.RevisionNotFoundError
	fmt.Println(errors.As(err, &notFound))
	// Output:
	// target: web-6d4
	// template: app=web image: web:1
	// unable to find specified revision 7 in history
	// true
}
