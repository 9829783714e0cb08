package enqueue

import (
	"github.com/rolloutplan/rolloutplan/model"
)

// DeletePod returns the Deployment to sync when a Pod is deleted; obj is a
// *model.Pod or a [Tombstone] holding one (upstream deletePod). Only a
// Recreate Deployment is woken, and only when it has no pod left:
//
//   - the Pod's controller reference must name a ReplicaSet of the cache with
//     the same UID, whose own controller reference resolves to a Deployment
//     (upstream getDeploymentForPod);
//   - that Deployment's strategy must be Recreate;
//   - no pod may remain among c.Pods that is controlled by one of its
//     ReplicaSets ([PodCount]). Terminating and finished pods count, as
//     upstream counts every pod a Recreate rollout waits for.
//
// c.Pods is the pod store after the deletion, as upstream's handler sees
// it. Upstream lists the ReplicaSets from the API server at that point;
// c.ReplicaSets stands for that list.
func DeletePod(obj any, c Cache) ([]string, error) {
	pod, err := unwrap[*model.Pod](obj, "Pod")
	if err != nil {
		return nil, err
	}
	d := DeploymentForPod(pod, c)
	if d == nil || d.Spec.Strategy.Type != model.RecreateStrategy {
		return nil, nil
	}
	if PodCount(d, c) == 0 {
		return keys(d), nil
	}
	return nil, nil
}

// DeploymentForPod returns the Deployment managing a Pod through its
// ReplicaSet, or nil (upstream getDeploymentForPod). Pods are never
// matched by selector: an orphan Pod has no Deployment.
func DeploymentForPod(pod *model.Pod, c Cache) *model.Deployment {
	if pod == nil {
		return nil
	}
	ref := pod.ControllerRef()
	if ref == nil || ref.Kind != model.ReplicaSetKind {
		return nil
	}
	var rs *model.ReplicaSet
	for _, r := range c.ReplicaSets {
		if r != nil && r.Namespace == pod.Namespace && r.Name == ref.Name {
			rs = r
			break
		}
	}
	if rs == nil || rs.UID != ref.UID {
		return nil
	}
	return resolveControllerRef(&c, rs.Namespace, rs.ControllerRef())
}

// PodCount returns how many pods of c.Pods the Deployment still has, as
// upstream's deletePod counts them (ListReplicaSets, then
// getPodMapForDeployment over the pod informer's controller index): the
// ReplicaSets of its namespace that its selector lists (a nil selector
// lists all of them) and that it controls; then every pod of the namespace
// whose controller reference names one of them by kind ReplicaSet, name and
// UID, whatever the pod's labels. A Deployment whose selector is invalid
// cannot list its ReplicaSets; PodCount returns -1 for it so that
// [DeletePod] does not wake it, as upstream gives up on the listing error;
// a nil Deployment also gives -1.
func PodCount(d *model.Deployment, c Cache) int {
	if d == nil {
		return -1
	}
	sel, err := model.NewSharedMatcher(d.Spec.Selector)
	if err != nil {
		return -1
	}
	type owner struct{ name, uid string }
	owned := map[owner]bool{}
	for _, rs := range c.ReplicaSets {
		if rs == nil || rs.Namespace != d.Namespace || !rs.IsControlledBy(d.UID) {
			continue
		}
		if d.Spec.Selector == nil || sel.Matches(rs.Labels) {
			owned[owner{rs.Name, rs.UID}] = true
		}
	}
	n := 0
	for _, p := range c.Pods {
		if p == nil || p.Namespace != d.Namespace {
			continue
		}
		if ref := p.ControllerRef(); ref != nil && ref.Kind == model.ReplicaSetKind && owned[owner{ref.Name, ref.UID}] {
			n++
		}
	}
	return n
}
