package upstreamdiff_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/controller/deployment"
)

// upstreamSync runs one real syncDeployment of the v1.36.3 controller over
// the objects (in its informer stores and in a fake API) and returns the
// writes it sent.
func upstreamSync(t *testing.T, d *apps.Deployment, rss []*apps.ReplicaSet, pods []*core.Pod) []string {
	t.Helper()
	client := fake.NewClientset(objects(d, rss, pods)...)
	f := informers.NewSharedInformerFactory(client, 0)
	ctrl, err := deployment.NewDeploymentController(context.Background(), f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Apps().V1().Deployments().Informer().GetIndexer().Add(d.DeepCopy())
	for _, rs := range rss {
		_ = f.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(rs.DeepCopy())
	}
	for _, p := range pods {
		_ = f.Core().V1().Pods().Informer().GetIndexer().Add(p.DeepCopy())
	}
	v := reflect.ValueOf(ctrl).Elem().FieldByName("syncHandler")
	sync := reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface().(func(context.Context, string) error)
	client.ClearActions()
	_ = sync(context.Background(), d.Namespace+"/"+d.Name)
	return writes(client.Actions())
}

// applySync plans the same sync with rolloutplan and sends it with
// appsv1.Apply, over the same objects.
func applySync(t *testing.T, d *apps.Deployment, rss []*apps.ReplicaSet, pods []*core.Pod) []string {
	t.Helper()
	client := fake.NewClientset(objects(d, rss, pods)...)
	out, _, err := appsv1.Sync(appsv1.State{Now: time.Now(), Deployment: d, ReplicaSets: rss, Pods: pods})
	// A *plan.SyncError comes with the writes upstream makes before its
	// sync ends with that error: they are sent like any others.
	if err != nil && !errors.As(err, new(*plan.SyncError)) {
		t.Fatal(err)
	}
	client.ClearActions()
	if _, err := appsv1.Apply(context.Background(), client, out, appsv1.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	return writes(client.Actions())
}

func objects(d *apps.Deployment, rss []*apps.ReplicaSet, pods []*core.Pod) []runtime.Object {
	out := []runtime.Object{d.DeepCopy()}
	for _, rs := range rss {
		out = append(out, rs.DeepCopy())
	}
	for _, p := range pods {
		out = append(out, p.DeepCopy())
	}
	return out
}

// writes renders the write requests: verb, resource, subresource, name, and
// what the controllers decide in them (sizes, annotations, status counts,
// patch bodies, delete options). Reads (the uncached Deployment GET before
// an adoption, the ReplicaSet list of deletePod) are left out.
func writes(actions []k8stesting.Action) []string {
	var out []string
	for _, a := range actions {
		var detail string
		switch a := a.(type) {
		case k8stesting.CreateActionImpl:
			detail = describeObject(a.GetObject())
		case k8stesting.UpdateActionImpl:
			detail = describeObject(a.GetObject())
		case k8stesting.PatchActionImpl:
			detail = fmt.Sprintf("%s %s", a.GetPatchType(), a.GetPatch())
		case k8stesting.DeleteActionImpl:
			o, _ := json.Marshal(a.DeleteOptions)
			detail = fmt.Sprintf("%s %s", a.GetName(), o)
		default:
			continue
		}
		out = append(out, fmt.Sprintf("%s %s/%s: %s", a.GetVerb(), a.GetResource().Resource, a.GetSubresource(), detail))
	}
	return out
}

func describeObject(o runtime.Object) string {
	switch o := o.(type) {
	case *apps.ReplicaSet:
		return fmt.Sprintf("rs %s replicas=%d minReady=%d labels=%v annotations=%v owners=%d", o.Name, *o.Spec.Replicas, o.Spec.MinReadySeconds, o.Labels, o.Annotations, len(o.OwnerReferences))
	case *apps.Deployment:
		s := o.Status
		var conds []string
		for _, c := range s.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s/%s", c.Type, c.Status, c.Reason))
		}
		cc := int32(-1)
		if s.CollisionCount != nil {
			cc = *s.CollisionCount
		}
		return fmt.Sprintf("deployment %s annotations=%v template=%s observed=%d replicas=%d updated=%d ready=%d available=%d unavailable=%d collisions=%d conditions=%v",
			o.Name, o.Annotations, o.Spec.Template.Spec.Containers[0].Image, s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas, cc, conds)
	}
	return fmt.Sprintf("%T", o)
}

// Scenario builders: a Deployment "web" in "ns" and ReplicaSets as the
// controller leaves them.
func webDeployment(replicas int32, image string, strategy apps.DeploymentStrategy) *apps.Deployment {
	labels := map[string]string{"app": "web"}
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", UID: "web-uid", Generation: 2, ResourceVersion: "10",
			CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Hour)), Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}},
		Spec: apps.DeploymentSpec{
			Replicas: new(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "web", Image: image}}},
			},
			Strategy:                strategy,
			RevisionHistoryLimit:    new(int32(2)),
			ProgressDeadlineSeconds: new(int32(600)),
		},
		Status: apps.DeploymentStatus{ObservedGeneration: 1},
	}
}

func rollingStrategy(surge, unavailable int32) apps.DeploymentStrategy {
	s, u := intstr.FromInt32(surge), intstr.FromInt32(unavailable)
	return apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType, RollingUpdate: &apps.RollingUpdateDeployment{MaxSurge: &s, MaxUnavailable: &u}}
}

// ownedRS is the ReplicaSet of d's template with the given image, size,
// availability and revision, owned by d (or an orphan when owned is false).
func ownedRS(d *apps.Deployment, image string, replicas, available int32, revision int, owned bool) *apps.ReplicaSet {
	tmpl := d.Spec.Template.DeepCopy()
	tmpl.Spec.Containers[0].Image = image
	hash := appsv1.ComputeHash(tmpl, nil)
	tmpl.Labels = map[string]string{"app": "web", apps.DefaultDeploymentUniqueLabelKey: hash}
	rs := &apps.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-" + hash, UID: types.UID("rs-" + hash), ResourceVersion: "5", Generation: 1,
			CreationTimestamp: metav1.NewTime(time.Now().Add(time.Duration(revision-10) * time.Minute)),
			Labels:            tmpl.Labels,
			Annotations: map[string]string{"deployment.kubernetes.io/revision": fmt.Sprint(revision),
				"deployment.kubernetes.io/desired-replicas": fmt.Sprint(*d.Spec.Replicas), "deployment.kubernetes.io/max-replicas": fmt.Sprint(*d.Spec.Replicas + 1)}},
		Spec: apps.ReplicaSetSpec{Replicas: new(replicas), Selector: &metav1.LabelSelector{MatchLabels: tmpl.Labels}, Template: *tmpl},
		Status: apps.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: available, AvailableReplicas: available, FullyLabeledReplicas: replicas,
			ObservedGeneration: 1},
	}
	if owned {
		rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, apps.SchemeGroupVersion.WithKind("Deployment"))}
	}
	return rs
}

// TestApplySendsWhatUpstreamSends runs one sync of the real v1.36.3
// controller and one rolloutplan sync sent with appsv1.Apply over the same
// objects (both against a fake API that accepts every write), and requires
// the same write requests in the same order.
func TestApplySendsWhatUpstreamSends(t *testing.T) {
	type scenario struct {
		name string
		d    *apps.Deployment
		rss  []*apps.ReplicaSet
		// failedCreate: upstream first attempts the create a hash collision
		// makes fail (AlreadyExists); the plan leaves that attempt out and
		// starts with the collisionCount write.
		failedCreate bool
	}
	var cases []scenario
	{
		d := webDeployment(3, "nginx:1", rollingStrategy(1, 0))
		cases = append(cases, scenario{"new Deployment", d, nil, false})
	}
	{
		d := webDeployment(3, "nginx:2", rollingStrategy(1, 0))
		cases = append(cases, scenario{"new template", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, true)}, false})
	}
	{
		d := webDeployment(4, "nginx:2", rollingStrategy(1, 1))
		d.Annotations["deployment.kubernetes.io/revision"] = "2"
		cases = append(cases, scenario{"mid rollout", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, true), ownedRS(d, "nginx:2", 2, 2, 2, true)}, false})
	}
	{
		d := webDeployment(3, "nginx:1", rollingStrategy(1, 0))
		cases = append(cases, scenario{"orphan to adopt", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, false)}, false})
	}
	{
		d := webDeployment(3, "nginx:5", rollingStrategy(1, 0))
		d.Annotations["deployment.kubernetes.io/revision"] = "5"
		d.Status = apps.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
		cases = append(cases, scenario{"history cleanup", d, []*apps.ReplicaSet{
			ownedRS(d, "nginx:1", 0, 0, 1, true), ownedRS(d, "nginx:2", 0, 0, 2, true), ownedRS(d, "nginx:3", 0, 0, 3, true),
			ownedRS(d, "nginx:4", 0, 0, 4, true), ownedRS(d, "nginx:5", 3, 3, 5, true)}, false})
	}
	{
		d := webDeployment(6, "nginx:2", rollingStrategy(2, 1))
		d.Annotations["deployment.kubernetes.io/revision"] = "2"
		cases = append(cases, scenario{"scale during a rollout", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, true), ownedRS(d, "nginx:2", 1, 0, 2, true)}, false})
	}
	{
		d := webDeployment(3, "nginx:2", apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType})
		cases = append(cases, scenario{"Recreate", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, true)}, false})
	}
	{
		d := webDeployment(3, "nginx:1", rollingStrategy(1, 0))
		d.Spec.Paused = true
		cases = append(cases, scenario{"paused", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 2, 2, 1, true)}, false})
	}
	{
		d := webDeployment(3, "nginx:1", rollingStrategy(1, 0))
		stray := ownedRS(d, "nginx:0", 0, 0, 1, true)
		stray.Labels = map[string]string{"app": "other"}
		cases = append(cases, scenario{"owned ReplicaSet to release", d, []*apps.ReplicaSet{stray, ownedRS(d, "nginx:1", 3, 3, 2, true)}, false})
	}
	{
		d := webDeployment(3, "nginx:2", rollingStrategy(1, 0))
		squatter := ownedRS(d, "nginx:2", 0, 0, 7, false)
		squatter.Spec.Template.Spec.Containers[0].Image = "busybox"
		squatter.Labels = map[string]string{"squatter": "yes"}
		squatter.Spec.Selector = &metav1.LabelSelector{MatchLabels: squatter.Labels}
		squatter.Spec.Template.Labels = squatter.Labels
		cases = append(cases, scenario{"hash collision", d, []*apps.ReplicaSet{ownedRS(d, "nginx:1", 3, 3, 1, true), squatter}, true})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := upstreamSync(t, c.d, c.rss, nil)
			got := applySync(t, c.d, c.rss, nil)
			if c.failedCreate {
				if len(want) == 0 || !strings.HasPrefix(want[0], "create replicasets/") {
					t.Fatalf("upstream did not start with the failing create: %v", want)
				}
				want = want[1:]
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("rolloutplan + Apply sent\n  %s\nupstream sent\n  %s", join(got), join(want))
			}
			t.Logf("%d writes:\n  %s", len(want), join(want))
			if len(want) == 0 {
				t.Error("upstream sent nothing: the scenario checks nothing")
			}
		})
	}
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += "\n  "
		}
		out += x
	}
	return out
}
