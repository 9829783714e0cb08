package controller

import (
	"fmt"
	"io"
	"strings"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

// tombstoneToModel converts an informer object, or the tombstone of a
// deletion the informer missed, for plan/enqueue, and returns its
// namespace. Objects it cannot convert give nil.
func tombstoneToModel(obj any) (any, string) {
	if ts, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		inner, ns := tombstoneToModel(ts.Obj)
		if inner == nil {
			return nil, ""
		}
		return enqueue.Tombstone{Key: ts.Key, Obj: inner}, ns
	}
	switch o := obj.(type) {
	case *apps.Deployment:
		m, err := appsv1.DeploymentToModel(o)
		if err != nil {
			return nil, ""
		}
		return m, o.Namespace
	case *apps.ReplicaSet:
		m, err := appsv1.ReplicaSetToModel(o)
		if err != nil {
			return nil, ""
		}
		return m, o.Namespace
	case *core.Pod:
		m, err := appsv1.PodToModel(o)
		if err != nil {
			return nil, ""
		}
		return m, o.Namespace
	}
	return nil, ""
}

// printShadow prints the writes a sync would send, one per line.
func printShadow(w io.Writer, controller, key string, actions []appsv1.Action) {
	if len(actions) == 0 {
		fmt.Fprintf(w, "%s %s: no writes\n", controller, key)
		return
	}
	for _, a := range actions {
		target := a.Resource
		if a.Subresource != "" {
			target += "/" + a.Subresource
		}
		line := fmt.Sprintf("%s %s: %s %s %s/%s", controller, key, a.Verb, target, a.Namespace, a.Name)
		if a.Conflict {
			line += " (a real server answers 409)"
		}
		if a.Reason.Code != "" {
			line += ": " + a.Reason.String()
		}
		fmt.Fprintln(w, strings.TrimSpace(line))
	}
}
