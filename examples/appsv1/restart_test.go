package appsv1_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/restart"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestRestartConfigChecksums(t *testing.T) {
	// Recorded by the original: readme-rule1-restart and restart-s1-0007.
	cm := &core.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app-config", Namespace: "default", ResourceVersion: "1"},
		Data: map[string]string{"LOG_LEVEL": "info"}, BinaryData: map[string][]byte{"b": {1}}}
	c, err := appsv1.RestartConfigMap(cm, false)
	if err != nil || c.Checksum != "ce705679c69d8e0e" || c.Ref.String() != "configmap/default/app-config" || c.Version != "1" {
		t.Errorf("%+v %v", c, err)
	}
	if c2, _ := appsv1.RestartConfigMap(cm, true); c2.Checksum == c.Checksum {
		t.Error("binaryData not covered with includeBinary")
	}
	s := &core.Secret{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"}, StringData: map[string]string{"URL": "\u2028"}}
	sc, err := appsv1.RestartSecret(s)
	if err != nil || sc.Checksum != "86190335fbd70d45" || sc.Ref.String() != "secret/default/db" {
		t.Errorf("%+v %v", sc, err)
	}
	if s.Data != nil {
		t.Error("input modified")
	}
	if _, err := appsv1.RestartConfigMap(nil, false); err == nil {
		t.Error("nil configmap accepted")
	}
	if _, err := appsv1.RestartSecret(nil); err == nil {
		t.Error("nil secret accepted")
	}
}

func podSpec() core.PodSpec {
	return core.PodSpec{
		InitContainers: []core.Container{{Name: "init", EnvFrom: []core.EnvFromSource{{ConfigMapRef: &core.ConfigMapEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "init-cm"}}}}}},
		Containers: []core.Container{{Name: "main",
			EnvFrom: []core.EnvFromSource{{SecretRef: &core.SecretEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "env-secret"}}}},
			Env:     []core.EnvVar{{Name: "A", ValueFrom: &core.EnvVarSource{ConfigMapKeyRef: &core.ConfigMapKeySelector{LocalObjectReference: core.LocalObjectReference{Name: "key-cm"}, Key: "a"}}}},
		}},
		Volumes: []core.Volume{
			{Name: "v1", VolumeSource: core.VolumeSource{ConfigMap: &core.ConfigMapVolumeSource{LocalObjectReference: core.LocalObjectReference{Name: "vol-cm"}}}},
			{Name: "v2", VolumeSource: core.VolumeSource{Secret: &core.SecretVolumeSource{SecretName: "vol-secret"}}},
			{Name: "v3", VolumeSource: core.VolumeSource{Projected: &core.ProjectedVolumeSource{Sources: []core.VolumeProjection{
				{Secret: &core.SecretProjection{LocalObjectReference: core.LocalObjectReference{Name: "proj-secret"}}}}}}},
		},
	}
}

// typedReferences walks the typed k8s PodSpec independently of the
// planner's JSON reading.
func typedReferences(ns string, ps core.PodSpec, original bool) []string {
	var out []string
	add := func(kind, name string) { out = append(out, kind+"/"+ns+"/"+name) }
	containers := ps.Containers
	if !original {
		containers = append(slices.Clone(ps.InitContainers), containers...)
	}
	for _, c := range containers {
		for _, e := range c.EnvFrom {
			if e.ConfigMapRef != nil {
				add("configmap", e.ConfigMapRef.Name)
			}
			if e.SecretRef != nil && (e.ConfigMapRef == nil || !original) {
				add("secret", e.SecretRef.Name)
			}
		}
		if original {
			continue
		}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil {
				add("configmap", e.ValueFrom.ConfigMapKeyRef.Name)
			}
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				add("secret", e.ValueFrom.SecretKeyRef.Name)
			}
		}
	}
	for _, v := range ps.Volumes {
		if v.ConfigMap != nil {
			add("configmap", v.ConfigMap.Name)
		}
		if original {
			continue
		}
		if v.Secret != nil {
			add("secret", v.Secret.SecretName)
		}
		if v.Projected != nil {
			for _, s := range v.Projected.Sources {
				if s.ConfigMap != nil {
					add("configmap", s.ConfigMap.Name)
				}
				if s.Secret != nil {
					add("secret", s.Secret.Name)
				}
			}
		}
	}
	slices.Sort(out)
	if !original {
		out = slices.Compact(out)
	}
	return out
}

func TestRestartWorkloadReferences(t *testing.T) {
	tmpl := core.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: podSpec()}
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", ResourceVersion: "7",
		Annotations: map[string]string{restart.AnnotationEnabled: "enabled"}}, Spec: apps.DeploymentSpec{Template: tmpl}}
	s := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "ns"}, Spec: apps.StatefulSetSpec{Template: tmpl}}
	dw, err := appsv1.RestartDeployment(d)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := appsv1.RestartStatefulSet(s)
	if err != nil {
		t.Fatal(err)
	}
	if dw.Ref.String() != "deployment/ns/web" || dw.Version != "7" || sw.Ref.String() != "statefulset/ns/db" || !restart.Enabled(dw.Annotations) {
		t.Errorf("%+v %+v", dw.Ref, sw.Ref)
	}
	for _, original := range []bool{false, true} {
		want := typedReferences("ns", podSpec(), original)
		for _, w := range []restart.Workload{dw, sw} {
			refs, _, err := restart.References("ns", w.Template.Spec, original)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range refs {
				got = append(got, r.String())
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s original=%v: %v, want %v", w.Ref, original, got, want)
			}
		}
	}
	if _, err := appsv1.RestartDeployment(nil); err == nil {
		t.Error("nil deployment accepted")
	}
	if _, err := appsv1.RestartStatefulSet(nil); err == nil {
		t.Error("nil statefulset accepted")
	}
}

// mergePatch applies an RFC 7386 JSON merge patch.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = mergePatch(t[k], v)
		}
	}
	return t
}

// The planner's patch, sent as the request the original sends and applied
// as a JSON merge patch to the Deployment's JSON, equals ApplyRestartPatch;
// the restarted template differs from the old one, the annotation-only
// patch leaves the template alone.
func TestRestartPatchRoundTrip(t *testing.T) {
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", ResourceVersion: "1",
		Annotations: map[string]string{restart.AnnotationEnabled: "enabled", restart.AnnotationChecksums: `{"configmap/ns/app-config":"old"}`}},
		Spec: apps.DeploymentSpec{Template: core.PodTemplateSpec{Spec: core.PodSpec{Containers: []core.Container{{Name: "main",
			EnvFrom: []core.EnvFromSource{{ConfigMapRef: &core.ConfigMapEnvSource{LocalObjectReference: core.LocalObjectReference{Name: "app-config"}}}}}}}}}}
	tr, err := restart.NewTracker(restart.Options{GracePeriod: restart.DefaultGracePeriod})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	cm, _ := appsv1.RestartConfigMap(&core.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "app-config", Namespace: "ns", ResourceVersion: "2"}, Data: map[string]string{"k": "v"}}, false)
	w, _ := appsv1.RestartDeployment(d)
	if _, err := tr.ObserveConfig(cm, now); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.ObserveWorkload(w, now); err != nil {
		t.Fatal(err)
	}
	res := tr.Plan(now.Add(5*time.Second), false)
	if len(res.Patches) != 1 || !res.Patches[0].Restart {
		t.Fatalf("%+v", res.Patches)
	}
	p := res.Patches[0]
	req, err := appsv1.RestartPatchRequest(p)
	if err != nil || req.Resource.Resource != "deployments" || req.Resource.Group != "apps" || req.PatchType != types.MergePatchType ||
		string(req.PatchType) != restart.PatchType || req.Name != "web" || req.Namespace != "ns" {
		t.Fatalf("%+v %v", req, err)
	}
	doc, _ := json.Marshal(d)
	var obj, patch any
	if err := json.Unmarshal(doc, &obj); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(req.Data, &patch); err != nil {
		t.Fatal(err)
	}
	merged, _ := json.Marshal(mergePatch(obj, patch))
	var want apps.Deployment
	if err := json.Unmarshal(merged, &want); err != nil {
		t.Fatal(err)
	}
	got := appsv1.ApplyRestartPatch(d, p)
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("ApplyRestartPatch differs from the merge patch:\n%+v\n%+v", got.Spec.Template.Annotations, want.Spec.Template.Annotations)
	}
	if d.Spec.Template.Annotations != nil {
		t.Error("input modified")
	}
	if got.Spec.Template.Annotations[restart.AnnotationTimestamp] != "Mar  1 10:00:05" {
		t.Errorf("template annotations %v", got.Spec.Template.Annotations)
	}
	ss := appsv1.ApplyRestartPatchStatefulSet(&apps.StatefulSet{}, p)
	if ss.Annotations[restart.AnnotationChecksums] != `{"configmap/ns/app-config":"`+cm.Checksum+`"}` {
		t.Errorf("%v", ss.Annotations)
	}
	if _, err := appsv1.RestartPatchRequest(restart.Patch{Workload: restart.Ref{Kind: restart.KindConfigMap}}); err == nil {
		t.Error("patch of a configmap accepted")
	}
}
