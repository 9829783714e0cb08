package main

import (
	"context"
	"fmt"
	"sync"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// scenario is one rollout: Deployments created at one image, complete,
// then updated together to another.
type scenario struct {
	name        string
	about       string
	deployments int
	replicas    int32
	// maxSurge and maxUnavailable are the RollingUpdate parameters; nil
	// leaves the API server's defaults (25 % each).
	maxSurge, maxUnavailable *intstr.IntOrString
}

// The images of the Kubernetes documentation's Deployment example (the
// nginx 3-replica update); the stand-in kubelet pulls nothing.
const (
	fromImage = "nginx:1.14.2"
	toImage   = "nginx:1.16.1"
)

// scenarios are issue 24's: the documentation's nginx update, a 100-replica
// rollout at 25 %/25 %, and 100 Deployments updated at once.
var scenarios = []scenario{
	{name: "nginx", about: "1 Deployment of 3 replicas, default strategy (25 %/25 %)", deployments: 1, replicas: 3},
	{name: "rollout100", about: "1 Deployment of 100 replicas, maxSurge 25 %, maxUnavailable 25 %", deployments: 1, replicas: 100,
		maxSurge: new(intstr.FromString("25%")), maxUnavailable: new(intstr.FromString("25%"))},
	{name: "many100", about: "100 Deployments of 3 replicas updated at once, default strategy", deployments: 100, replicas: 3},
}

func scenarioNamed(name string) (scenario, bool) {
	for _, s := range scenarios {
		if s.name == name {
			return s, true
		}
	}
	return scenario{}, false
}

// names are the scenario's Deployment names.
func (s scenario) names() []string {
	if s.deployments == 1 {
		return []string{s.name}
	}
	out := make([]string, s.deployments)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", s.name, i)
	}
	return out
}

func (s scenario) deployment(name string) *apps.Deployment {
	labels := map[string]string{"app": name}
	d := &apps.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: apps.DeploymentSpec{
			Replicas: new(s.replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: core.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: core.PodSpec{Containers: []core.Container{{
					Name: "nginx", Image: fromImage,
					Ports: []core.ContainerPort{{ContainerPort: 80}},
				}}},
			},
		},
	}
	if s.maxSurge != nil || s.maxUnavailable != nil {
		d.Spec.Strategy = apps.DeploymentStrategy{
			Type:          apps.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &apps.RollingUpdateDeployment{MaxSurge: s.maxSurge, MaxUnavailable: s.maxUnavailable},
		}
	}
	return d
}

// parallel runs f for every name, at most width at a time, and returns
// the first error.
func parallel(names []string, width int, f func(string) error) error {
	sem := make(chan struct{}, width)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, n := range names {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := f(n); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// create creates the scenario's Deployments at fromImage.
func (s scenario) create(ctx context.Context, client kubernetes.Interface, ns string) error {
	return parallel(s.names(), 20, func(name string) error {
		_, err := client.AppsV1().Deployments(ns).Create(ctx, s.deployment(name), metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create Deployment %s: %w", name, err)
		}
		return nil
	})
}

// update sets every Deployment's image to toImage, all at once.
func (s scenario) update(ctx context.Context, client kubernetes.Interface, ns string) error {
	return parallel(s.names(), len(s.names()), func(name string) error {
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			d.Spec.Template.Spec.Containers[0].Image = toImage
			_, err = client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{})
			return err
		})
		if err != nil {
			return fmt.Errorf("update Deployment %s: %w", name, err)
		}
		return nil
	})
}
