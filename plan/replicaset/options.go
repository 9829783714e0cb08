package replicaset

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// Option adjusts [Sync] and the ranking helpers. No option at all reproduces
// the upstream ReplicaSet controller of Kubernetes v1.36 with its default
// feature gates, with no API call failing, and with the documented total order
// for pods upstream's ranking cannot tell apart.
//
// Options that concern only a sync (faults, pod naming, the terminating
// count) are ignored by the ranking helpers.
type Option func(*config)

// CreateFault decides the outcome of one pod create. attempt is the 0-based
// index of the create in this sync, counted across batches in slow-start
// order; pod is a copy of the pod about to be sent (its Name is the planned
// name). Returning nil lets the create succeed; any other error rejects it and
// its text becomes the sync's error. Wrap [ErrNamespaceTerminating] to model
// a namespace being deleted.
type CreateFault func(attempt int, pod *model.Pod) error

// DeleteFault decides the outcome of one pod delete; pod is a copy of the
// victim. Returning nil lets the delete succeed; wrap [ErrNotFound] to model a
// pod that is already gone.
type DeleteFault func(pod *model.Pod) error

// PodNamer picks the name of a pod the planner creates. It is called with the
// generateName upstream sends ("<rs.name>-") and n = 0, 1, 2, … until it
// returns a name no pod of the namespace (and no pod planned earlier in the
// same sync) has. It must be deterministic; an injective namer is always
// satisfied after at most (pods in the namespace + pods to create) calls, and
// a namer that is not gets an error once that many calls have failed.
type PodNamer func(generateName string, n int) string

// ErrNamespaceTerminating marks a create rejected because the namespace is
// being deleted. Upstream counts such a create as a success: no error, no
// event, the slow start goes on (upstream manageReplicas). Wrap it in a [CreateFault]'s
// error to model that case.
var ErrNamespaceTerminating = errors.New("namespace is being terminated")

// ErrNotFound marks a delete of a pod that no longer exists. Upstream ignores
// it: no error, no event. Wrap it in a [DeleteFault]'s error.
var ErrNotFound = errors.New("not found")

type config struct {
	pending          bool
	objectsValidated bool
	deletionCost     bool
	terminating      bool
	upstreamTies     bool
	createFault      CreateFault
	deleteFault      DeleteFault
	namer            PodNamer
}

func newConfig(opts []Option) config {
	c := config{deletionCost: true, terminating: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithPodDeletionCost sets the PodDeletionCost feature gate (beta, on by
// default since v1.22). Off, the controller.kubernetes.io/pod-deletion-cost
// annotation is ignored and ranking rule 4 never applies.
func WithPodDeletionCost(enabled bool) Option {
	return func(c *config) { c.deletionCost = enabled }
}

// WithTerminatingReplicas sets the DeploymentReplicaSetTerminatingReplicas
// feature gate (on by default since v1.35) for the ReplicaSet controller.
// Off, the ReplicaSet's status.terminatingReplicas is written as nil. No
// decision depends on it. It is the same gate as
// [github.com/rolloutplan/rolloutplan/plan.WithTerminatingReplicas], which
// sets it for the Deployment controller: upstream's two controllers read one
// gate, so a caller that runs both planners passes both options alike.
func WithTerminatingReplicas(enabled bool) Option {
	return func(c *config) { c.terminating = enabled }
}

// WithUpstreamTieOrder ranks pods exactly as upstream does: Go's sort.Sort
// (pattern-defeating quicksort) with upstream's pairwise comparator ([Compare])
// over the active pods in the order they are given, and no sort at all when
// every active pod is deleted.
//
// Upstream's comparator does not define a consistent order (see the package
// documentation, "Ties and cycles"), so the pods it deletes can depend on the
// order of its informer cache. Given pods in that order, this option
// reproduces upstream's choice bit for bit; in exchange the plan depends on
// the order of the pods slice. Without it the planner uses the documented
// permutation-invariant order, which agrees with upstream whenever upstream's
// comparator is consistent on the pods at hand.
func WithUpstreamTieOrder() Option {
	return func(c *config) { c.upstreamTies = true }
}

// WithCreateFault makes pod creates fail as f says, to exercise upstream's
// failure path: a failed create stops the slow start after its batch, the
// remaining pods are skipped, the sync ends with the error and the status
// gains a ReplicaFailure condition with reason FailedCreate. A nil f keeps
// every create successful.
func WithCreateFault(f CreateFault) Option {
	return func(c *config) { c.createFault = f }
}

// WithCreateQuota lets the first n create attempts of the sync succeed and
// rejects the rest with a ResourceQuota-style message; with n = 3 the fourth
// attempt fails with `pods "web-7d9-bcdfg" is forbidden: exceeded quota:
// pods, requested: pods=1, used: pods=3, limited: pods=3`. The quota counts
// this sync's creates only, which is what a simulator stepping one sync at a
// time needs.
func WithCreateQuota(n int) Option {
	return WithCreateFault(func(attempt int, pod *model.Pod) error {
		if attempt < n {
			return nil
		}
		return fmt.Errorf("pods %q is forbidden: exceeded quota: pods, requested: pods=1, used: pods=%d, limited: pods=%d", pod.Name, n, n)
	})
}

// WithDeleteFault makes pod deletes fail as f says. Every victim is still
// attempted (upstream deletes in parallel); the first failure in deletion
// order becomes the sync's error, wrapped as upstream wraps it ("unable to
// delete pods: ..."), and the status gains a ReplicaFailure condition with
// reason FailedDelete. A nil f keeps every delete successful.
func WithDeleteFault(f DeleteFault) Option {
	return func(c *config) { c.deleteFault = f }
}

// WithExpectationsPending plans the sync upstream's ReplicaSet controller
// runs while its expectations for rs are not satisfied (its pod informer
// has not yet seen every create and delete of the controller's last sync
// of rs, and they have not timed out): pods are claimed and the status is
// written, but no pod is created or deleted (upstream syncReplicaSet skips
// manageReplicas when SatisfiedExpectations is false). A controller that
// keeps expectations passes it instead of skipping the sync, so that the
// status (readyReplicas, availableReplicas) keeps up while it waits.
func WithExpectationsPending() Option {
	return func(c *config) { c.pending = true }
}

// ReplicaSetsAndPodsValidated is the caller's word that the ReplicaSet
// passes model.ValidateReplicaSet and every pod of its namespace
// model.ValidatePod (pod spec rules included): Sync then leaves out those
// rules, applies the others (no nil pod, UIDs set and unique, names unique,
// a non-empty selector that selects the template) and plans exactly as
// without the option. It is for a controller that validates each object
// once per version: its syncs read the same pods of the namespace again and
// again, and checking every pod's spec at each one costs more than the plan.
// Given for objects that were not checked, it lets pods the API server would
// refuse be planned over. The same word as the Deployment planner's
// [github.com/rolloutplan/rolloutplan/plan.ReplicaSetsAndPodsValidated].
func ReplicaSetsAndPodsValidated() Option {
	return func(c *config) { c.objectsValidated = true }
}

// WithPodNamer replaces the default naming of created pods (see the package
// documentation, "Names of created pods"). A nil namer keeps the default.
func WithPodNamer(namer PodNamer) Option {
	return func(c *config) { c.namer = namer }
}
