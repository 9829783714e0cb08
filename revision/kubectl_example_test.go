package revision_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

func ExampleKubectlReplicaSets() {
	d := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", UID: "d"},
		Spec: model.DeploymentSpec{Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: "v2"}},
	}
	rs := func(name, spec string, minute int, owner string) *model.ReplicaSet {
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: name, UID: name, Labels: map[string]string{"app": "web"},
				CreationTimestamp: time.Date(2026, 1, 1, 0, minute, 0, 0, time.UTC),
				OwnerReferences:   []model.OwnerReference{model.NewControllerRef("apps/v1", "Deployment", "x", owner)}},
			Spec: model.ReplicaSetSpec{Template: model.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: spec}},
		}
	}
	// The new ReplicaSet (template v2) is listed last although it is not the
	// newest; the one owned by another Deployment is left out.
	all, _ := revision.KubectlReplicaSets(d, []*model.ReplicaSet{
		rs("web-v2", "v2", 1, "d"), rs("web-v1", "v1", 0, "d"), rs("web-v3", "v3", 2, "d"), rs("other", "v1", 0, "o"),
	})
	for _, r := range all {
		fmt.Println(r.Name)
	}
	// Output:
	// web-v1
	// web-v3
	// web-v2
}
