package controller

import (
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
)

// namespaceCaches reads the ReplicaSet and Pod informer caches both
// controllers sync over.
type namespaceCaches struct {
	rsLister  appslisters.ReplicaSetLister
	podLister corelisters.PodLister
}

// list returns every ReplicaSet and every Pod of namespace ns: what one
// sync of a Deployment or a ReplicaSet of ns reads besides its own object.
func (c namespaceCaches) list(ns string) ([]*apps.ReplicaSet, []*core.Pod, error) {
	rss, err := c.rsLister.ReplicaSets(ns).List(labels.Everything())
	if err != nil {
		return nil, nil, err
	}
	pods, err := c.podLister.Pods(ns).List(labels.Everything())
	if err != nil {
		return nil, nil, err
	}
	return rss, pods, nil
}
