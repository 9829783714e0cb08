// Package enqueue decides which Deployments a controller syncs when a
// ReplicaSet or a Pod changes: the event routing of the upstream Deployment
// controller (Kubernetes v1.36, pkg/controller/deployment), as pure
// functions.
//
// To start: keep the informers' contents in a [Cache] and, on each event,
// call the handler of the same name (for example UpdateReplicaSet(old, cur,
// cache)) and add the keys it returns to the work queue; see the Examples for
// UpdateReplicaSet and DeletePod.
//
// Upstream registers handlers on three informers. Every Deployment event
// enqueues that Deployment. A ReplicaSet event enqueues the Deployment its
// controller reference points to, or, for an orphan, every Deployment whose
// selector matches its labels (so that one of them adopts it). A Pod deletion
// enqueues a Recreate Deployment once none of its pods is left, because a
// Recreate rollout waits for the old pods to be gone before it scales the
// new ReplicaSet up and nothing else would wake it.
//
// Each function takes the informer caches as a [Cache] and returns the keys
// ("namespace/name", client-go's MetaNamespaceKeyFunc) to add to the work
// queue, sorted and without duplicates: the work queue is a set, so the
// order and the repetitions of upstream's Add calls make no difference to
// what gets synced.
//
// The functions never modify their arguments, keep no state and read no
// clock.
package enqueue

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rolloutplan/rolloutplan/model"
)

// Cache is what the controller's informers hold when a handler runs: the
// Deployments, ReplicaSets and Pods. Objects of other namespaces than the
// event's are ignored, so one Cache may hold a whole cluster.
//
// Upstream's handlers see the store after the event: an added or updated
// object is in it, a deleted one is gone. Pass the caches the same way.
type Cache struct {
	Deployments []*model.Deployment
	ReplicaSets []*model.ReplicaSet
	// Pods are read only by [DeletePod].
	Pods []*model.Pod
}

// Tombstone is the marker an informer delivers for a deletion it only
// noticed by relisting (client-go's cache.DeletedFinalStateUnknown). Obj is
// the last known state of the object and may be stale.
type Tombstone struct {
	Key string
	Obj any
}

// ErrUnexpectedObject is matched (errors.Is) by the error a delete handler
// returns for an object that is neither the expected kind nor a [Tombstone]
// holding one; upstream reports such objects and enqueues nothing.
var ErrUnexpectedObject = errors.New("unexpected object")

// Key returns the work-queue key of an object, "namespace/name" (or "name"
// for an empty namespace), as client-go's MetaNamespaceKeyFunc does.
func Key(m *model.ObjectMeta) string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// AddDeployment returns the key of an added Deployment (upstream
// addDeployment).
func AddDeployment(d *model.Deployment) []string {
	if d == nil {
		return nil
	}
	return []string{Key(&d.ObjectMeta)}
}

// UpdateDeployment returns the key of the updated Deployment (upstream
// updateDeployment enqueues it on every update, resyncs included).
func UpdateDeployment(_, cur *model.Deployment) []string {
	return AddDeployment(cur)
}

// DeleteDeployment returns the key of a deleted Deployment; obj is a
// *model.Deployment or a [Tombstone] holding one (upstream deleteDeployment;
// the sync then finds the Deployment gone and does nothing).
func DeleteDeployment(obj any) ([]string, error) {
	d, err := unwrap[*model.Deployment](obj, "Deployment")
	if err != nil {
		return nil, err
	}
	return AddDeployment(d), nil
}

// unwrap returns obj as a T, looking inside a [Tombstone] if needed.
func unwrap[T interface{ comparable }](obj any, kind string) (T, error) {
	var zero T
	if ts, ok := obj.(Tombstone); ok {
		obj = ts.Obj
	} else if ts, ok := obj.(*Tombstone); ok && ts != nil {
		obj = ts.Obj
	}
	v, ok := obj.(T)
	if !ok || v == zero {
		return zero, fmt.Errorf("%w: got %T, want a %s or a tombstone holding one", ErrUnexpectedObject, obj, kind)
	}
	return v, nil
}

// resolveControllerRef returns the Deployment a controller reference points
// to: the kind must be Deployment (only the kind is compared, not the API
// version, as upstream), and the Deployment of that name in the
// namespace must carry the reference's UID (upstream resolveControllerRef;
// a name alone could belong to a newer object).
func resolveControllerRef(c *Cache, namespace string, ref *model.OwnerReference) *model.Deployment {
	if ref == nil || ref.Kind != model.DeploymentKind {
		return nil
	}
	for _, d := range c.Deployments {
		if d != nil && d.Namespace == namespace && d.Name == ref.Name {
			if d.UID != ref.UID {
				return nil
			}
			return d
		}
	}
	return nil
}

// DeploymentsForReplicaSet returns the Deployments of the ReplicaSet's
// namespace whose selector matches its labels, in the order of
// c.Deployments (upstream getDeploymentsForReplicaSet and
// GetDeploymentsForReplicaSet). A ReplicaSet without labels matches none; a
// Deployment whose selector is empty, nil or invalid matches nothing.
// Several matches are a user error upstream only logs: all of them are
// returned, and the controller reference decides who manages the
// ReplicaSet.
func DeploymentsForReplicaSet(rs *model.ReplicaSet, c Cache) []*model.Deployment {
	if rs == nil || len(rs.Labels) == 0 {
		return nil
	}
	var out []*model.Deployment
	for _, d := range c.Deployments {
		if d == nil || d.Namespace != rs.Namespace || selectsNothing(d.Spec.Selector) {
			continue
		}
		if ok, err := d.Spec.Selector.Matches(rs.Labels); err == nil && ok {
			out = append(out, d)
		}
	}
	return out
}

// selectsNothing reports whether a Deployment selector is skipped when
// matching orphans: nil, or with no requirement at all (upstream turns that
// into the everything-selector and then refuses it as empty).
func selectsNothing(s *model.LabelSelector) bool {
	return s == nil || len(s.MatchLabels)+len(s.MatchExpressions) == 0
}

// keys turns Deployments into sorted, distinct work-queue keys.
func keys(ds ...*model.Deployment) []string {
	var out []string
	for _, d := range ds {
		if d != nil {
			out = append(out, Key(&d.ObjectMeta))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
