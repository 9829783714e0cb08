package appsv1

import (
	"fmt"
	"unsafe"

	"github.com/rolloutplan/rolloutplan/plan"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// modelOf is c.model(s), releasing the Deployment's entry.
func modelOf(c *Syncer, s State) (plan.State, *syncerEntry, error) {
	in, e, err := c.model(s)
	if e != nil {
		e.inUse.Add(-1)
	}
	return in, e, err
}

func syncerInternalState() State {
	d := &apps.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "d", ResourceVersion: "1"}}
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Replicas = new(int32(1))
	d.Spec.Strategy.Type = apps.RecreateDeploymentStrategyType
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "ns", UID: "r", ResourceVersion: "2"}}
	rs.Spec.Replicas = new(int32(0))
	rs.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	pod := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "p", ResourceVersion: "3"}}
	noRV := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns", UID: "q"}}
	return State{Deployment: d, ReplicaSets: []*apps.ReplicaSet{rs}, Pods: []*core.Pod{pod, noRV}, Now: time.Unix(0, 0)}
}

// TestSyncerKeepsWhatItUsed: after a sync, the Deployment, ReplicaSet and
// Pod with a UID and a resourceVersion are remembered, the Deployment's
// with its hash state; an object without a resourceVersion is not; the
// next call hands the planner the same model objects, and a new
// resourceVersion a new one.
func TestSyncerKeepsWhatItUsed(t *testing.T) {
	s := syncerInternalState()
	var c Syncer
	if _, _, err := c.Sync(s); err != nil {
		t.Fatal(err)
	}
	if len(c.entries) != 3 {
		t.Fatalf("remembered %d objects, want 3 (deployment, replicaset, pod with a resourceVersion)", len(c.entries))
	}
	if e := c.entries[syncerKey{'d', "d", "1"}]; e == nil || e.hash.v.Load()&(1<<32) == 0 {
		t.Fatalf("deployment entry %+v: want its hash state kept", e)
	}
	first, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	if first.Deployment != second.Deployment || first.ReplicaSets[0] != second.ReplicaSets[0] || first.Pods[0] != second.Pods[0] {
		t.Fatal("a second call converted a remembered object again")
	}
	if first.Pods[1] == second.Pods[1] {
		t.Fatal("the pod without a resourceVersion was remembered")
	}
	s.Deployment = s.Deployment.DeepCopy() // another pointer, the same version
	s.ReplicaSets[0].ResourceVersion = "9" // the same pointer, a new version
	third, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	if third.Deployment != second.Deployment {
		t.Fatal("a copy with the same UID and resourceVersion was converted again")
	}
	if third.ReplicaSets[0] == second.ReplicaSets[0] || third.ReplicaSets[0].ResourceVersion != "9" {
		t.Fatal("a ReplicaSet changed in place with a new resourceVersion: want it converted again")
	}
	s.Deployment.ResourceVersion = "2"
	fourth, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	if fourth.Deployment == third.Deployment || fourth.Deployment.ResourceVersion != "2" || fourth.ReplicaSets[0] != third.ReplicaSets[0] {
		t.Fatal("a new resourceVersion of the Deployment: want it converted again, and only it")
	}
	// By key: two versions of the Deployment and of the ReplicaSet, the
	// pod; by meta: the three objects handed in last.
	if len(c.entries) != 5 || len(c.byMeta) != 3 {
		t.Fatalf("%d entries by key, %d by meta; want 5 and 3", len(c.entries), len(c.byMeta))
	}
	for m, e := range c.byMeta {
		if e.meta != m {
			t.Fatalf("entry %+v found by another meta", e.key)
		}
	}
}

// TestSyncerForgets: once a Syncer holds its limit, it drops the objects
// no call used since it last dropped any, and doubles the limit when most
// are in use. (A limit of 8 stands for minSyncerMemory.)
func TestSyncerForgets(t *testing.T) {
	base := syncerInternalState()
	states := make([]State, 8)
	for i := range states {
		d := base.Deployment.DeepCopy()
		d.Name, d.UID = fmt.Sprint("web", i), types.UID(fmt.Sprint("d", i))
		p := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("p", i), Namespace: "ns", UID: types.UID(fmt.Sprint("p", i)), ResourceVersion: "1"}}
		states[i] = State{Deployment: d, Pods: []*core.Pod{p}, Now: base.Now}
	}
	c := Syncer{limit: 8}
	first := make([]plan.State, len(states))
	for i, want := range []struct{ entries, limit int }{
		{2, 8}, {4, 8}, {6, 8},
		{8, 16}, // at the limit, all in use: none dropped, the limit doubled
		{10, 16}, {12, 16}, {14, 16},
		{8, 16}, // at the limit: the first four states' objects dropped
	} {
		in, _, err := modelOf(&c, states[i])
		if err != nil {
			t.Fatal(err)
		}
		first[i] = in
		if len(c.entries) != want.entries || c.limit != want.limit {
			t.Fatalf("after state %d: %d entries, limit %d; want %d and %d", i, len(c.entries), c.limit, want.entries, want.limit)
		}
	}
	if len(c.byMeta) != 8 || len(c.byTemplate) != 4 {
		t.Fatalf("%d entries by meta, %d by template; want 8 and 4", len(c.byMeta), len(c.byTemplate))
	}
	again0, _, _ := modelOf(&c, states[0])
	again7, _, _ := modelOf(&c, states[7])
	if again0.Deployment == first[0].Deployment || again7.Deployment != first[7].Deployment {
		t.Fatal("want the dropped state converted again and the kept one reused")
	}
}

// TestSyncerSameState: a call with the objects of the Deployment's last
// call (the same pointers and versions) reuses that call's model slices; a
// pod changed in place under a new resourceVersion, or an object without
// a resourceVersion, takes the lookup path and is converted again.
func TestSyncerSameState(t *testing.T) {
	s := syncerInternalState()
	s.Pods = s.Pods[:1] // without the pod that has no resourceVersion
	var c Syncer
	first, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	if &first.Pods[0] != &second.Pods[0] || &first.ReplicaSets[0] != &second.ReplicaSets[0] {
		t.Fatal("the same objects again: want the model slices reused")
	}
	s.Pods[0].ResourceVersion = "4"
	s.Pods[0].Status.Phase = core.PodRunning
	third, _, err := modelOf(&c, s)
	if err != nil {
		t.Fatal(err)
	}
	if &third.Pods[0] == &second.Pods[0] || third.Pods[0] == second.Pods[0] || third.Pods[0].Status.Phase != "Running" {
		t.Fatal("a pod changed in place with a new resourceVersion: want it converted again")
	}
	if third.ReplicaSets[0] != second.ReplicaSets[0] {
		t.Fatal("the unchanged ReplicaSet was converted again")
	}
	noRV := &core.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns", UID: "q"}}
	s.Pods = append(s.Pods, noRV)
	fourth, _, _ := modelOf(&c, s)
	fifth, _, _ := modelOf(&c, s)
	if fourth.Pods[1] == fifth.Pods[1] || &fourth.Pods[0] == &fifth.Pods[0] {
		t.Fatal("a pod without a resourceVersion: want it converted at every call")
	}
}

// TestSyncerUnchangedTemplates: new versions of a Deployment and of its
// ReplicaSet whose templates did not change (status writes) take the
// converted Spec the Syncer already has, from each other, instead of
// encoding the template again; a changed template is encoded.
func TestSyncerUnchangedTemplates(t *testing.T) {
	base := syncerInternalState()
	d := base.Deployment
	d.Spec.Template.Spec.Containers = []core.Container{{Name: "web", Image: "web:1"}}
	rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns", UID: "r1", ResourceVersion: "1"}}
	rs.Spec.Replicas = new(int32(1))
	rs.Spec.Selector = d.Spec.Selector
	rs.Spec.Template = *d.Spec.Template.DeepCopy()
	rs.Spec.Template.Labels = map[string]string{"app": "web", "pod-template-hash": "1"}
	state := func(d *apps.Deployment, rs *apps.ReplicaSet) State {
		return State{Deployment: d, ReplicaSets: []*apps.ReplicaSet{rs}, Now: base.Now}
	}
	data := func(s string) *byte { return unsafe.StringData(s) }
	var c Syncer
	in1, _, err := modelOf(&c, state(d, rs))
	if err != nil {
		t.Fatal(err)
	}
	spec := in1.Deployment.Spec.Template.Spec
	if data(in1.ReplicaSets[0].Spec.Template.Spec) != data(spec) {
		t.Fatal("the ReplicaSet with the Deployment's template encoded it again")
	}
	d2 := d.DeepCopy()
	d2.ResourceVersion, d2.Status.ObservedGeneration = "2", 1
	in2, _, err := modelOf(&c, state(d2, rs))
	if err != nil {
		t.Fatal(err)
	}
	if in2.Deployment == in1.Deployment || data(in2.Deployment.Spec.Template.Spec) != data(spec) {
		t.Fatal("a new version of the Deployment, template unchanged: want a new model object with the Spec it had")
	}
	rs2 := rs.DeepCopy()
	rs2.ResourceVersion, rs2.Status.Replicas = "2", 1
	in3, _, err := modelOf(&c, state(d2, rs2))
	if err != nil {
		t.Fatal(err)
	}
	if in3.ReplicaSets[0] == in2.ReplicaSets[0] || data(in3.ReplicaSets[0].Spec.Template.Spec) != data(spec) || in3.ReplicaSets[0].Status.Replicas != 1 {
		t.Fatal("a new version of the ReplicaSet, template unchanged: want a new model object with the Spec it had")
	}
	d3 := d2.DeepCopy()
	d3.ResourceVersion = "3"
	d3.Spec.Template.Spec.Containers[0].Image = "web:2"
	in4, _, err := modelOf(&c, state(d3, rs2))
	if err != nil {
		t.Fatal(err)
	}
	want, err := TemplateToModel(&d3.Spec.Template)
	if err != nil {
		t.Fatal(err)
	}
	if in4.Deployment.Spec.Template.Spec != want.Spec || in4.Deployment.Spec.Template.Spec == spec {
		t.Fatal("a changed template: want it encoded")
	}
}
