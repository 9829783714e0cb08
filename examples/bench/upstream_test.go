package bench

import (
	"context"
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	apps "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubernetes/pkg/controller/deployment"
)

// The upstream controller reads its clock through these package variables
// (kept for its unit tests): the progress deadline check in
// deployment/util and the requeue delay in deployment. The harness sets
// them to the case's clock so that upstream decides on the recorded state.
//
//go:linkname upstreamUtilNow k8s.io/kubernetes/pkg/controller/deployment/util.nowFn
var upstreamUtilNow func() time.Time

//go:linkname upstreamProgressNow k8s.io/kubernetes/pkg/controller/deployment.nowFn
var upstreamProgressNow func() time.Time

// upstreamSync is the real Deployment controller set up on one case: its
// informer caches hold the case's objects and its fake clientset accepts
// every write without storing it (a dry run), so every call of sync decides
// on the same state.
type upstreamSync struct {
	key    string
	now    time.Time
	client *fake.Clientset
	sync   func(ctx context.Context, key string) error
}

func newUpstreamSync(ctx context.Context, c appsv1.Case) (*upstreamSync, error) {
	client := fake.NewClientset()
	client.PrependReactor("*", "*", dryRun(c))
	f := informers.NewSharedInformerFactory(client, 0)
	dInf, rsInf, podInf := f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods()
	dc, err := deployment.NewDeploymentController(ctx, dInf, rsInf, podInf, client)
	if err != nil {
		return nil, err
	}
	if err := dInf.Informer().GetIndexer().Add(c.Deployment); err != nil {
		return nil, err
	}
	for _, rs := range c.ReplicaSets {
		if err := rsInf.Informer().GetIndexer().Add(rs); err != nil {
			return nil, err
		}
	}
	for _, p := range c.Pods {
		if err := podInf.Informer().GetIndexer().Add(p); err != nil {
			return nil, err
		}
	}
	// The controller keeps its sync function (syncDeployment) in an
	// unexported field for its unit tests; read it.
	field := reflect.ValueOf(dc).Elem().FieldByName("syncHandler")
	if !field.IsValid() || field.Type() != reflect.TypeFor[func(context.Context, string) error]() {
		return nil, fmt.Errorf("DeploymentController has no syncHandler func(context.Context, string) error")
	}
	sync := *(*func(context.Context, string) error)(unsafe.Pointer(field.UnsafeAddr()))
	return &upstreamSync{key: c.Deployment.Namespace + "/" + c.Deployment.Name, now: c.Now, client: client, sync: sync}, nil
}

// run syncs once and returns the writes the controller sent (reads left
// out) and its error.
func (u *upstreamSync) run(ctx context.Context) ([]k8stesting.Action, error) {
	now := func() time.Time { return u.now }
	upstreamUtilNow, upstreamProgressNow = now, now
	err := u.sync(ctx, u.key)
	var writes []k8stesting.Action
	for _, a := range u.client.Actions() {
		switch a.GetVerb() {
		case "create", "update", "patch", "delete":
			writes = append(writes, a)
		}
	}
	u.client.ClearActions()
	return writes, err
}

// dryRun answers every write as the API server would without storing it:
// a create whose ReplicaSet name is taken fails with AlreadyExists (the
// hash-collision path), patches return the patched ReplicaSet as read,
// everything else succeeds and returns what was sent.
func dryRun(c appsv1.Case) k8stesting.ReactionFunc {
	rss := map[string]*apps.ReplicaSet{}
	for _, rs := range c.ReplicaSets {
		rss[rs.Namespace+"/"+rs.Name] = rs
	}
	gr := schema.GroupResource{Group: "apps", Resource: "replicasets"}
	return func(a k8stesting.Action) (bool, runtime.Object, error) {
		switch a.GetVerb() {
		case "create":
			obj := a.(k8stesting.CreateAction).GetObject()
			if m, err := meta.Accessor(obj); err == nil && a.GetResource().Resource == "replicasets" {
				if _, taken := rss[a.GetNamespace()+"/"+m.GetName()]; taken {
					return true, nil, apierrors.NewAlreadyExists(gr, m.GetName())
				}
			}
			return true, obj, nil
		case "update":
			return true, a.(k8stesting.UpdateAction).GetObject(), nil
		case "patch":
			name := a.(k8stesting.PatchAction).GetName()
			if rs, ok := rss[a.GetNamespace()+"/"+name]; ok {
				return true, rs.DeepCopy(), nil
			}
			return true, nil, apierrors.NewNotFound(gr, name)
		case "delete":
			return true, nil, nil
		case "get":
			// Adoption rechecks the Deployment through the API.
			if a.GetResource().Resource == "deployments" && a.(k8stesting.GetAction).GetName() == c.Deployment.Name {
				return true, c.Deployment.DeepCopy(), nil
			}
		}
		return false, nil, nil
	}
}
