package controller_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/controller"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

func nginx() *apps.Deployment {
	labels := map[string]string{"app": "nginx"}
	return &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx", Namespace: "default", UID: "d-1", Generation: 1, ResourceVersion: "1"},
		Spec: apps.DeploymentSpec{
			Replicas: new(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       core.PodSpec{Containers: []core.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
			Strategy:                apps.DeploymentStrategy{Type: apps.RecreateDeploymentStrategyType},
			RevisionHistoryLimit:    new(int32(10)),
			ProgressDeadlineSeconds: new(int32(600)),
		},
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// In shadow mode the controller prints the writes of the first sync of a
// new Deployment and sends none.
func TestShadowPrintsAndWritesNothing(t *testing.T) {
	client := fake.NewClientset(nginx())
	var out syncBuffer
	m, err := controller.NewManager(client, controller.ManagerOptions{Options: controller.Options{Shadow: true, Out: &out}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := m.Run(ctx); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "update deployments/status") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
	got := out.String()
	for _, want := range []string{
		"deployment default/nginx: create replicasets default/nginx-",
		"deployment default/nginx: update deployments/status default/nginx",
		"(a real server answers 409)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("shadow output lacks %q:\n%s", want, got)
		}
	}
	for _, a := range client.Actions() {
		if v := a.GetVerb(); v != "list" && v != "watch" {
			t.Errorf("shadow mode sent %s %s", v, a.GetResource().Resource)
		}
	}
}

func TestOptionsValidated(t *testing.T) {
	for _, o := range []controller.Options{{Workers: -1}, {Workers: 65}, {Resync: -time.Second}} {
		if _, err := controller.NewManager(fake.NewClientset(), controller.ManagerOptions{Options: o}); !errors.Is(err, controller.ErrOptions) {
			t.Errorf("%+v: err = %v, want ErrOptions", o, err)
		}
	}
	if _, err := controller.NewManager(fake.NewClientset(), controller.ManagerOptions{CacheSyncTimeout: -time.Second}); !errors.Is(err, controller.ErrOptions) {
		t.Errorf("CacheSyncTimeout -1s: err = %v, want ErrOptions", err)
	}
}

// Caches that cannot be listed: Run gives up after CacheSyncTimeout, names
// the caches and their last list error, and stops the informers.
func TestRunFailsWhenCachesDoNotSync(t *testing.T) {
	client := fake.NewClientset(nginx())
	client.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("not allowed"))
	})
	m, err := controller.NewManager(client, controller.ManagerOptions{CacheSyncTimeout: 500 * time.Millisecond, Options: controller.Options{Shadow: true}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = m.Run(context.Background())
	if d := time.Since(start); d < 500*time.Millisecond || d > 10*time.Second {
		t.Errorf("Run returned after %s, want about 500ms", d)
	}
	if !errors.Is(err, controller.ErrCacheSync) {
		t.Fatalf("Run: %v, want ErrCacheSync", err)
	}
	for _, want := range []string{"pods not synced within 500ms", "last error: pods: ", "pods is forbidden: not allowed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Run: %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "deployments") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Run: %q names a synced cache or has several lines", err)
	}

	// A context that ends before the caches sync is an error too.
	m, err = controller.NewManager(client, controller.ManagerOptions{Options: controller.Options{Shadow: true}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, errors.New("time is up"))
	defer cancel()
	if err := m.Run(ctx); !errors.Is(err, controller.ErrCacheSync) || !strings.Contains(err.Error(), "pods stopped before they synced (time is up)") {
		t.Errorf("Run with a context that ends: %v", err)
	}
}
