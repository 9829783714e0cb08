package appsv1_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// jsonOf renders v as generic JSON for semantic comparison.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTripConformanceObjects converts every object of the public cases
// to the model and back: what the model carries comes back unchanged. The
// model drops kind and apiVersion, finalizers, deletionGracePeriodSeconds and
// the pod status the planners do not read.
func TestRoundTripConformanceObjects(t *testing.T) {
	var n int
	for _, l := range readSeeds(t) {
		var c appsv1.Case
		if err := json.Unmarshal(l.Case, &c); err != nil {
			t.Fatal(err)
		}
		d := c.Deployment.DeepCopy()
		d.TypeMeta = metav1.TypeMeta{}
		d.Finalizers = nil
		md, err := appsv1.DeploymentToModel(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := appsv1.DeploymentFromModel(md)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(jsonOf(t, d), jsonOf(t, back)); diff != "" {
			t.Errorf("%s: Deployment round trip (-in +out):\n%s", l.Meta.ID, diff)
		}
		if a, b := appsv1.ComputeHash(&d.Spec.Template, nil), appsv1.ComputeHash(&back.Spec.Template, nil); a != b {
			t.Errorf("%s: template hash %s before, %s after the round trip", l.Meta.ID, a, b)
		}
		for _, rs := range c.ReplicaSets {
			rs = rs.DeepCopy()
			rs.TypeMeta = metav1.TypeMeta{}
			m, err := appsv1.ReplicaSetToModel(rs)
			if err != nil {
				t.Fatal(err)
			}
			back, err := appsv1.ReplicaSetFromModel(m)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(jsonOf(t, rs), jsonOf(t, back)); diff != "" {
				t.Errorf("%s: ReplicaSet %s round trip (-in +out):\n%s", l.Meta.ID, rs.Name, diff)
			}
			n++
		}
		for _, p := range c.Pods {
			m, err := appsv1.PodToModel(p)
			if err != nil {
				t.Fatal(err)
			}
			back, err := appsv1.PodFromModel(m)
			if err != nil {
				t.Fatal(err)
			}
			// The model keeps the pod status the planners read (phase,
			// conditions' type, status and transition time, restart counts)
			// and what explains a wait (the conditions' reasons and
			// messages, container readiness, waiting and terminated
			// details: TestPodStatusForExplanations); of the metadata it
			// drops deletionGracePeriodSeconds.
			want := p.DeepCopy()
			want.DeletionGracePeriodSeconds = nil
			want.Status = core.PodStatus{Phase: p.Status.Phase}
			for _, c := range p.Status.Conditions {
				want.Status.Conditions = append(want.Status.Conditions, core.PodCondition{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime,
					Reason: c.Reason, Message: c.Message})
			}
			for _, c := range p.Status.ContainerStatuses {
				want.Status.ContainerStatuses = append(want.Status.ContainerStatuses, core.ContainerStatus{Name: c.Name, RestartCount: c.RestartCount, Ready: c.Ready})
			}
			if diff := cmp.Diff(jsonOf(t, want), jsonOf(t, back)); diff != "" {
				t.Errorf("%s: Pod %s round trip (-in +out):\n%s", l.Meta.ID, p.Name, diff)
			}
			n++
		}
	}
	t.Logf("%d ReplicaSets and Pods round-tripped", n)
}

func TestTemplateToModel(t *testing.T) {
	tmpl := &core.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{
			Labels:      map[string]string{"app": "web"},
			Annotations: map[string]string{"kubectl.kubernetes.io/restartedAt": "2025-03-01T10:00:00Z"},
			Finalizers:  []string{"example.com/keep"},
		},
		Spec: core.PodSpec{
			Containers:      []core.Container{{Name: "web", Image: "nginx:1.27", Args: []string{}}},
			SecurityContext: &core.PodSecurityContext{},
		},
	}
	m, err := appsv1.TemplateToModel(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	// Labels and annotations leave the document; other metadata stays; an
	// empty list is dropped (semantic equality treats it as absent); an empty
	// object (a set pointer) stays.
	const wantSpec = `{"metadata":{"finalizers":["example.com/keep"]},"spec":{"containers":[{"image":"nginx:1.27","name":"web","resources":{}}],"securityContext":{}}}`
	if m.Spec != wantSpec {
		t.Errorf("Spec =\n%s\nwant\n%s", m.Spec, wantSpec)
	}
	if diff := cmp.Diff(tmpl.Labels, m.Labels); diff != "" {
		t.Errorf("Labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tmpl.Annotations, m.Annotations); diff != "" {
		t.Errorf("Annotations (-want +got):\n%s", diff)
	}
	// The model's maps are copies.
	tmpl.Labels["app"] = "changed"
	if m.Labels["app"] != "web" {
		t.Error("TemplateToModel shares the label map with its input")
	}
	// Equal templates with differently ordered JSON compare equal.
	var a, b core.PodTemplateSpec
	if err := json.Unmarshal([]byte(`{"spec":{"containers":[{"name":"c","image":"i"}],"dnsPolicy":"ClusterFirst"}}`), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"spec":{"dnsPolicy":"ClusterFirst","containers":[{"image":"i","name":"c"}]}}`), &b); err != nil {
		t.Fatal(err)
	}
	ma, _ := appsv1.TemplateToModel(&a)
	mb, _ := appsv1.TemplateToModel(&b)
	if !model.EqualIgnoreHash(ma, mb) {
		t.Errorf("equal templates convert to different models:\n%s\n%s", ma.Spec, mb.Spec)
	}
}

func TestTemplateFromModelRejectsForeignSpec(t *testing.T) {
	m := model.PodTemplate{Labels: map[string]string{"app": "x"}, Spec: "not json"}
	if _, err := appsv1.TemplateFromModel(m); err == nil {
		t.Fatal("TemplateFromModel accepted a Spec that is not JSON")
	}
	// The hasher cannot fail: it falls back to rolloutplan's own hash.
	if got, want := appsv1.PodTemplateHash(m, nil), hash.ComputeHash(m, nil); got != want {
		t.Errorf("PodTemplateHash fallback = %q, want hash.ComputeHash %q", got, want)
	}
	if _, err := appsv1.PodFromModel(&model.Pod{Spec: model.PodSpec{Body: "[1]"}}); err == nil {
		t.Error("PodFromModel accepted a Body that is not a PodSpec")
	}
}

func TestNilObjects(t *testing.T) {
	checks := map[string]error{}
	_, checks["DeploymentToModel"] = appsv1.DeploymentToModel(nil)
	_, checks["DeploymentFromModel"] = appsv1.DeploymentFromModel(nil)
	_, checks["ReplicaSetToModel"] = appsv1.ReplicaSetToModel(nil)
	_, checks["ReplicaSetFromModel"] = appsv1.ReplicaSetFromModel(nil)
	_, checks["PodToModel"] = appsv1.PodToModel(nil)
	_, checks["PodFromModel"] = appsv1.PodFromModel(nil)
	_, checks["TemplateToModel"] = appsv1.TemplateToModel(nil)
	_, checks["State.Model"] = appsv1.State{}.Model()
	_, checks["State.Model nil ReplicaSet"] = appsv1.State{Deployment: &apps.Deployment{}, ReplicaSets: []*apps.ReplicaSet{nil}}.Model()
	_, checks["State.Model nil Pod"] = appsv1.State{Deployment: &apps.Deployment{}, Pods: []*core.Pod{nil}}.Model()
	for name, err := range checks {
		if !errors.Is(err, appsv1.ErrNil) {
			t.Errorf("%s(nil): error %v, want one wrapping ErrNil", name, err)
		}
	}
}

func TestTimesBecomeUTC(t *testing.T) {
	loc := time.FixedZone("CET", 3600)
	created := metav1.NewTime(time.Date(2025, 3, 1, 11, 0, 0, 0, loc))
	deleted := metav1.NewTime(time.Date(2025, 3, 1, 11, 5, 0, 0, loc))
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-1", CreationTimestamp: created, DeletionTimestamp: &deleted}}
	m, err := appsv1.ReplicaSetToModel(rs)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC); m.CreationTimestamp != want {
		t.Errorf("CreationTimestamp = %v, want %v", m.CreationTimestamp, want)
	}
	if want := time.Date(2025, 3, 1, 10, 5, 0, 0, time.UTC); m.DeletionTimestamp == nil || *m.DeletionTimestamp != want {
		t.Errorf("DeletionTimestamp = %v, want %v", m.DeletionTimestamp, want)
	}
	// A zero creation time stays the zero time.Time.
	m, _ = appsv1.ReplicaSetToModel(&apps.ReplicaSet{})
	if !m.CreationTimestamp.IsZero() || m.CreationTimestamp != (time.Time{}) {
		t.Errorf("zero CreationTimestamp became %#v", m.CreationTimestamp)
	}
}

// TestSelectorNilAndEmpty keeps upstream's distinctions: a nil selector
// matches nothing, an empty one (nil maps) selects everything.
func TestSelectorNilAndEmpty(t *testing.T) {
	d := &apps.Deployment{}
	m, _ := appsv1.DeploymentToModel(d)
	if m.Spec.Selector != nil {
		t.Errorf("nil selector became %#v", m.Spec.Selector)
	}
	d.Spec.Selector = &metav1.LabelSelector{}
	m, _ = appsv1.DeploymentToModel(d)
	if m.Spec.Selector == nil || !m.Spec.Selector.IsEmpty() {
		t.Errorf("empty selector became %#v", m.Spec.Selector)
	}
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{}}
	m, _ = appsv1.DeploymentToModel(d)
	if m.Spec.Selector == nil || m.Spec.Selector.IsEmpty() || m.Spec.Selector.MatchLabels == nil {
		t.Errorf("selector with an empty, non-nil matchLabels became %#v", m.Spec.Selector)
	}
}
