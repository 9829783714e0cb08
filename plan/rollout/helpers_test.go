package rollout

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// nginxSpec is the template document of the seeds' nginx example (seed
// 004), in the adapter's form: the template without labels and annotations.
func nginxSpec(image string) string {
	return `{"metadata":{},"spec":{"containers":[{"image":"` + image + `","name":"nginx","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// nginx returns the seeds' nginx-deployment: 3 replicas of nginx:image at
// revision rev, its status as given.
func nginx(image string, rev int, st model.DeploymentStatus) *model.Deployment {
	return &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "d-uid", Generation: 2,
			Labels:      map[string]string{"app": "nginx"},
			Annotations: map[string]string{model.RevisionAnnotation: fmt.Sprint(rev)}},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: nginxSpec(image)},
			Strategy: model.Strategy{Type: model.RollingUpdateStrategy},
		},
		Status: st,
	}
}

// revisionRS returns a ReplicaSet of the nginx Deployment holding revision
// rev of image, created rev minutes after t0, with change cause cause.
func revisionRS(d *model.Deployment, image string, rev int, hash, cause string) *model.ReplicaSet {
	ann := map[string]string{model.RevisionAnnotation: fmt.Sprint(rev)}
	if cause != "" {
		ann[model.ChangeCauseAnnotation] = cause
	}
	labels := map[string]string{"app": "nginx", model.PodTemplateHashLabel: hash}
	return &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: "nginx-deployment-" + hash, Namespace: "default", UID: "rs-" + hash,
			CreationTimestamp: t0.Add(time.Duration(rev) * time.Minute), Labels: labels, Annotations: ann,
			OwnerReferences: []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID)}},
		Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(0),
			Selector: &model.LabelSelector{MatchLabels: labels},
			Template: model.PodTemplate{Labels: labels, Spec: nginxSpec(image)}},
	}
}

// nginxHistory is the seed 004 history: revisions 1 (nginx:1.14.2), 2
// (nginx:1.16.1) and 3 (nginx:1.161, the typo), the Deployment at 3.
func nginxHistory() (*model.Deployment, []*model.ReplicaSet) {
	d := nginx("nginx:1.161", 3, model.DeploymentStatus{ObservedGeneration: 2})
	return d, []*model.ReplicaSet{
		revisionRS(d, "nginx:1.14.2", 1, "75675f5897", "kubectl apply --filename=https://k8s.io/examples/controllers/nginx-deployment.yaml"),
		revisionRS(d, "nginx:1.16.1", 2, "c4747d96c", "kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.16.1"),
		revisionRS(d, "nginx:1.161", 3, "6b8f4f9d4", "kubectl set image deployment.v1.apps/nginx-deployment nginx=nginx:1.161"),
	}
}
