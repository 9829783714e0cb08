package revision

import (
	"github.com/rolloutplan/rolloutplan/internal/casetest"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// needReason refuses a table case without a name or a one-line reason, so
// that every hand-checked value says where it comes from.
func needReason(t *testing.T, name, reason string) {
	t.Helper()
	casetest.Require(t, name, reason)
}

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type rsOpt func(*model.ReplicaSet)

// newRS returns an idle ReplicaSet (0 replicas, observed) with UID
// "uid-<name>" created at t0.
func newRS(name string, opts ...rsOpt) *model.ReplicaSet {
	rs := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, CreationTimestamp: t0},
		Spec:       model.ReplicaSetSpec{Replicas: model.Int32Ptr(0)},
	}
	for _, o := range opts {
		o(rs)
	}
	return rs
}

func rev(v string) rsOpt {
	return func(rs *model.ReplicaSet) {
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[model.RevisionAnnotation] = v
	}
}

func ann(k, v string) rsOpt {
	return func(rs *model.ReplicaSet) {
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[k] = v
	}
}

func created(offset time.Duration) rsOpt {
	return func(rs *model.ReplicaSet) { rs.CreationTimestamp = t0.Add(offset) }
}

func replicas(spec, status int32) rsOpt {
	return func(rs *model.ReplicaSet) {
		rs.Spec.Replicas = model.Int32Ptr(spec)
		rs.Status.Replicas = status
	}
}

func generation(gen, observed int64) rsOpt {
	return func(rs *model.ReplicaSet) {
		rs.Generation = gen
		rs.Status.ObservedGeneration = observed
	}
}

func deleting() rsOpt {
	return func(rs *model.ReplicaSet) { rs.DeletionTimestamp = model.TimePtr(t0) }
}

func ownedBy(d *model.Deployment) rsOpt {
	return func(rs *model.ReplicaSet) {
		rs.OwnerReferences = []model.OwnerReference{
			model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, d.Name, d.UID),
		}
	}
}

func labels(kv ...string) rsOpt {
	return func(rs *model.ReplicaSet) {
		rs.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			rs.Labels[kv[i]] = kv[i+1]
		}
	}
}

// template gives the ReplicaSet the template of image with its own hash
// label, as the controller would.
func template(image, hash string) rsOpt {
	return func(rs *model.ReplicaSet) {
		rs.Spec.Template = webTemplate(image)
		rs.Spec.Template.Labels[model.PodTemplateHashLabel] = hash
	}
}

func webTemplate(image string) model.PodTemplate {
	return model.PodTemplate{
		Labels: map[string]string{"app": "web"},
		Spec:   `{"containers":[{"image":"` + image + `","name":"web"}]}`,
	}
}

// webDeployment is Deployment "web" (UID "d-web", selector app=web) whose
// template runs image.
func webDeployment(image string) *model.Deployment {
	return &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "d-web"},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(3),
			Selector: &model.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: webTemplate(image),
		},
	}
}

// webRS is a ReplicaSet of Deployment d at a revision, running image.
func webRS(d *model.Deployment, name, revision, image string, age time.Duration, opts ...rsOpt) *model.ReplicaSet {
	base := []rsOpt{rev(revision), template(image, name), ownedBy(d), labels("app", "web", model.PodTemplateHashLabel, name), created(age)}
	return newRS(name, append(base, opts...)...)
}

func names(rss []*model.ReplicaSet) []string {
	out := make([]string, len(rss))
	for i, rs := range rss {
		out[i] = rs.Name
	}
	return out
}

func deepCopies(rss []*model.ReplicaSet) []*model.ReplicaSet {
	if rss == nil {
		return nil
	}
	out := make([]*model.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = rs.DeepCopy()
	}
	return out
}
