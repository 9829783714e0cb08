package appsv1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func seedCases(t *testing.T) []appsv1.Case {
	t.Helper()
	var out []appsv1.Case
	for _, l := range readSeeds(t) {
		var c appsv1.Case
		if err := json.Unmarshal(l.Case, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// requireSameSync compares a Syncer's result with Sync's: the Output and
// the Plan, field by field.
func requireSameSync(t *testing.T, id string, wantOut appsv1.Output, wantPlan plan.Plan, wantErr error, gotOut appsv1.Output, gotPlan plan.Plan, gotErr error) {
	t.Helper()
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%s: error %v, Sync's %v", id, gotErr, wantErr)
	}
	if d := cmp.Diff(wantOut, gotOut); d != "" {
		t.Fatalf("%s: Output differs from Sync's (-Sync +Syncer):\n%s", id, d)
	}
	if !reflect.DeepEqual(wantPlan, gotPlan) {
		t.Fatalf("%s: Plan differs from Sync's:\n%+v\n%+v", id, wantPlan, gotPlan)
	}
}

// TestSyncerMatchesSync: on every public case, a Syncer's first (cold) and
// second (warm) sync give exactly Sync's Output and Plan; so does one
// Syncer shared by all cases in turn.
func TestSyncerMatchesSync(t *testing.T) {
	shared := &appsv1.Syncer{}
	for i, c := range seedCases(t) {
		id := fmt.Sprintf("case %d", i)
		wantOut, wantPlan, wantErr := appsv1.Sync(c.State())
		var own appsv1.Syncer
		for range 2 {
			out, p, err := own.Sync(c.State())
			requireSameSync(t, id, wantOut, wantPlan, wantErr, out, p, err)
		}
		out, p, err := shared.Sync(c.State())
		requireSameSync(t, id+" (shared Syncer)", wantOut, wantPlan, wantErr, out, p, err)
	}
}

func syncerState() appsv1.State {
	now := time.Date(2025, 3, 1, 10, 0, 1, 0, time.UTC)
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "d-1", ResourceVersion: "7", Generation: 1,
			CreationTimestamp: metav1.NewTime(now.Add(-time.Second))},
		Spec: apps.DeploymentSpec{
			Replicas: new(int32(2)),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "web", Image: "web:1"}}},
			},
			Strategy: apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType},
		},
	}
	return appsv1.State{Now: now, Deployment: d}
}

// TestSyncerNewVersion: an object changed with a new resourceVersion is
// converted again (the new ReplicaSet's name follows the new image), and
// one without a resourceVersion is converted on every call.
func TestSyncerNewVersion(t *testing.T) {
	var c appsv1.Syncer
	s := syncerState()
	first, _, err := c.Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Deployment.DeepCopy()
	d.Spec.Template.Spec.Containers[0].Image = "web:2"
	d.ResourceVersion = "8"
	s.Deployment = d
	second, _, err := c.Sync(s)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := appsv1.Sync(s)
	if first.Actions[0].Name == second.Actions[0].Name || second.Actions[0].Name != want.Actions[0].Name {
		t.Fatalf("created %s then %s; Sync creates %s", first.Actions[0].Name, second.Actions[0].Name, want.Actions[0].Name)
	}
	d.ResourceVersion = ""
	d.Spec.Template.Spec.Containers[0].Image = "web:3"
	third, _, _ := c.Sync(s)
	want, _, _ = appsv1.Sync(s)
	if third.Actions[0].Name != want.Actions[0].Name {
		t.Fatalf("without a resourceVersion: created %s, Sync creates %s", third.Actions[0].Name, want.Actions[0].Name)
	}
}

// TestSyncerErrors: nil objects fail as with Sync, naming the index.
func TestSyncerErrors(t *testing.T) {
	s := syncerState()
	for name, st := range map[string]appsv1.State{
		"no deployment":  {Now: s.Now},
		"nil replicaset": {Now: s.Now, Deployment: s.Deployment, ReplicaSets: []*apps.ReplicaSet{nil}},
		"nil pod":        {Now: s.Now, Deployment: s.Deployment, Pods: []*core.Pod{nil}},
	} {
		_, _, want := appsv1.Sync(st)
		var c appsv1.Syncer
		_, _, got := c.Sync(st)
		if want == nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: error %v, Sync's %v", name, got, want)
		}
	}
}

// TestSyncerConcurrent: one Syncer used from several goroutines gives each
// Sync's answer.
func TestSyncerConcurrent(t *testing.T) {
	cases := seedCases(t)[:20]
	var c appsv1.Syncer
	var wg sync.WaitGroup
	errs := make(chan string, len(cases)*4)
	for g := range 4 {
		wg.Go(func() {
			for i, cs := range cases {
				want, _, _ := appsv1.Sync(cs.State())
				got, _, _ := c.Sync(cs.State())
				if d := cmp.Diff(want, got); d != "" {
					errs <- fmt.Sprintf("goroutine %d case %d: %s", g, i, d)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
