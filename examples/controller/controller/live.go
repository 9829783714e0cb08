package controller

import (
	"context"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// LiveState reads the state one Deployment sync plans over straight from
// the API server (no informer cache): the Deployment, every ReplicaSet and
// every Pod of its namespace.
func LiveState(ctx context.Context, client kubernetes.Interface, namespace, name string, now time.Time) (appsv1.State, error) {
	d, err := client.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return appsv1.State{}, err
	}
	rss, err := client.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return appsv1.State{}, err
	}
	pods, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return appsv1.State{}, err
	}
	s := appsv1.State{Now: now, Deployment: d}
	for i := range rss.Items {
		s.ReplicaSets = append(s.ReplicaSets, &rss.Items[i])
	}
	for i := range pods.Items {
		s.Pods = append(s.Pods, &pods.Items[i])
	}
	return s, nil
}
