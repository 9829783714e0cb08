package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
)

func deployment(ns, name string, replicas int32, image string) *apps.Deployment {
	labels := map[string]string{"app": name}
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: apps.DeploymentSpec{
			Replicas: new(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{
					Containers:                    []core.Container{{Name: name, Image: image}},
					TerminationGracePeriodSeconds: new(int64(0)),
				},
			},
		},
	}
}

func rolling(d *apps.Deployment, surge, unavailable intstr.IntOrString) *apps.Deployment {
	d.Spec.Strategy = apps.DeploymentStrategy{Type: apps.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &apps.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}
	return d
}

func create(ctx context.Context, t *testing.T, d *apps.Deployment) *apps.Deployment {
	t.Helper()
	got, err := client.AppsV1().Deployments(d.Namespace).Create(ctx, d, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// update changes the Deployment with f, retrying on conflicts with the
// controllers' status writes.
func update(ctx context.Context, t *testing.T, ns, name string, f func(*apps.Deployment)) {
	t.Helper()
	for range 20 {
		d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f(d)
		if _, err = client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{}); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("could not update %s/%s", ns, name)
}

func setImage(image string) func(*apps.Deployment) {
	return func(d *apps.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image }
}

// complete reports whether the Deployment's rollout is done: the status
// observed the last generation and every replica is updated and available.
func complete(d *apps.Deployment) bool {
	r := *d.Spec.Replicas
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == r && s.Replicas == r && s.AvailableReplicas == r
}

func waitFor(ctx context.Context, t *testing.T, what string, timeout time.Duration, cond func() (bool, error)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(context.Context) (bool, error) { return cond() }); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

func waitComplete(ctx context.Context, t *testing.T, ns, name string) *apps.Deployment {
	t.Helper()
	var d *apps.Deployment
	waitFor(ctx, t, "the rollout of "+ns+"/"+name, 90*time.Second, func() (bool, error) {
		var err error
		d, err = client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return complete(d), nil
	})
	return d
}

func replicaSets(ctx context.Context, t *testing.T, ns string) []apps.ReplicaSet {
	t.Helper()
	l, err := client.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

// newAndOld returns the spec replicas of the ReplicaSet whose template
// matches the Deployment's image, and the sum of the others.
func newAndOld(ctx context.Context, t *testing.T, ns, image string) (int32, int32) {
	var n, o int32
	for _, rs := range replicaSets(ctx, t, ns) {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			n += *rs.Spec.Replicas
		} else {
			o += *rs.Spec.Replicas
		}
	}
	return n, o
}

// scalingEvents returns the ScalingReplicaSet events of a Deployment as
// "<ReplicaSet> <n>" (the size it was scaled to), oldest first.
func scalingEvents(ctx context.Context, t *testing.T, ns, name string) []string {
	t.Helper()
	l, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + name + ",reason=ScalingReplicaSet"})
	if err != nil {
		t.Fatal(err)
	}
	items := l.Items
	sort.SliceStable(items, func(i, j int) bool {
		if !items[i].FirstTimestamp.Equal(&items[j].FirstTimestamp) {
			return items[i].FirstTimestamp.Before(&items[j].FirstTimestamp)
		}
		return items[i].Name < items[j].Name
	})
	var out []string
	for _, e := range items {
		// "Scaled up replica set nginx-5d7 from 0 to 1"
		f := strings.Fields(e.Message)
		if len(f) < 5 || e.Source.Component != "deployment-controller" {
			continue
		}
		for i := int32(0); i < e.Count || (i == 0 && e.Count == 0); i++ {
			out = append(out, f[4]+" "+f[len(f)-1])
		}
	}
	return out
}

// observerBase is what the Deployment, StatefulSet and DaemonSet observers
// share: the count of states checked and of violations plantest attributes
// to documented upstream quirks, the first violations, and the stop of the
// goroutine that feeds the observer states.
type observerBase struct {
	mu         sync.Mutex
	states     int
	quirks     int
	violations []string
	stop       func()
	done       chan struct{} // closed when the goroutine has returned
}

// begin returns the context of the observer's goroutine, which finish
// cancels; the goroutine closes o.done when it returns.
func (o *observerBase) begin() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	o.stop, o.done = cancel, make(chan struct{})
	return ctx
}

// poll calls visit every interval, from a goroutine that runs until finish
// (at the latest, the test's cleanup).
func (o *observerBase) poll(t *testing.T, every time.Duration, visit func(context.Context)) {
	ctx := o.begin()
	go func() {
		defer close(o.done)
		for ctx.Err() == nil {
			visit(ctx)
			select {
			case <-ctx.Done():
			case <-time.After(every):
			}
		}
	}()
	t.Cleanup(o.finish)
}

func (o *observerBase) countState() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.states++
}

// add records a violation; the first 20 are kept, enough to say what went
// wrong without flooding the log.
func (o *observerBase) add(msg string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.violations) < 20 {
		o.violations = append(o.violations, msg)
	}
}

// addViolations records what plantest found in the plan made at state fp,
// counting apart what it attributes to a documented upstream quirk.
func (o *observerBase) addViolations(vs []plantest.Violation, prefix, fp string) {
	for _, v := range vs {
		if v.Quirk != "" {
			o.mu.Lock()
			o.quirks++
			o.mu.Unlock()
			continue
		}
		o.add(fmt.Sprintf("%s%s at %s", prefix, v, fp))
	}
}

func (o *observerBase) finish() {
	o.stop()
	<-o.done
}

// verify stops the observer and fails the test for any violation, or when
// the observer saw fewer than minStates states.
func (o *observerBase) verify(t *testing.T, minStates int) {
	t.Helper()
	o.finish()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.states < minStates {
		t.Fatalf("the observer saw %d states, fewer than %d", o.states, minStates)
	}
	t.Logf("invariants checked at %d observed states (%d violations attributed to documented upstream quirks)", o.states, o.quirks)
	for _, v := range o.violations {
		t.Error(v)
	}
}

// appendVersions appends the resourceVersion of each of objs, after tag, to
// the parts of a state's fingerprint.
func appendVersions[O metav1.Object](parts []string, tag string, objs []O) []string {
	for _, o := range objs {
		parts = append(parts, tag+o.GetResourceVersion())
	}
	return parts
}

// observer polls a namespace's Deployment, ReplicaSets and Pods from the
// server and, at every state it sees, plans a sync and checks the plan with
// plantest.Check, and runs the test's own checks on the state.
type observer struct {
	observerBase
}

func observe(t *testing.T, ns, name string, extra func(appsv1.State) string) *observer {
	o := &observer{}
	last := ""
	o.poll(t, 50*time.Millisecond, func(ctx context.Context) {
		if s, err := controller.LiveState(ctx, client, ns, name, time.Now()); err == nil {
			o.check(s, &last, extra)
		}
	})
	return o
}

func (o *observer) check(s appsv1.State, last *string, extra func(appsv1.State) string) {
	fp := fingerprint(s)
	if fp == *last {
		return
	}
	*last = fp
	in, err := s.Model()
	if err != nil {
		o.add("model: " + err.Error())
		return
	}
	_, p, err := appsv1.Sync(s)
	o.countState()
	// A *plan.SyncError comes with the plan of the writes made before it,
	// which is checked like any other; any other error is invalid input.
	if err != nil && !errors.As(err, new(*plan.SyncError)) {
		o.add("plan: " + err.Error())
		return
	}
	o.addViolations(plantest.Check(in, p), "", fp)
	if extra != nil {
		if msg := extra(s); msg != "" {
			o.add(msg + " at " + fp)
		}
	}
}

// verify stops the observer and fails the test for any violation.
func (o *observer) verify(t *testing.T) {
	t.Helper()
	o.observerBase.verify(t, 1)
}

// fingerprint identifies a state by the resourceVersions in it.
func fingerprint(s appsv1.State) string {
	var parts []string
	parts = append(parts, "d"+s.Deployment.ResourceVersion)
	for _, rs := range s.ReplicaSets {
		parts = append(parts, fmt.Sprintf("%s=%d/%d", rs.Name, *rs.Spec.Replicas, rs.Status.AvailableReplicas))
	}
	parts = append(parts, fmt.Sprintf("pods=%d", len(s.Pods)))
	for _, p := range s.Pods {
		parts = append(parts, p.ResourceVersion)
	}
	slices.Sort(parts[1:])
	return strings.Join(parts, ",")
}
