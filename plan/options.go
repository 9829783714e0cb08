package plan

import (
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// Option adjusts a sync. The zero set of options reproduces upstream v1.36
// with its default feature gates.
type Option func(*config)

// Hasher computes the pod-template hash of a template with a collision count,
// the value that names a new ReplicaSet and labels its pods.
type Hasher func(t model.PodTemplate, collisionCount *int32) string

type config struct {
	hasher              Hasher
	terminatingReplicas bool
	surfaceOldRSErrors  bool
	rollbackNoCreate    bool
	podSpecsValidated   bool
	objectsValidated    bool
	proportion          proportion.Options
}

func newConfig(opts []Option) config {
	c := config{hasher: hash.ComputeHash, terminatingReplicas: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithHasher replaces the pod-template hash. The default, hash.ComputeHash,
// hashes rolloutplan's canonical template encoding, so ReplicaSet names differ
// from a real cluster's; an adapter that hashes the apps/v1 object the
// upstream way (upstream ComputeHash) passes its function here to reproduce upstream
// names exactly. A nil h keeps the default.
func WithHasher(h Hasher) Option {
	return func(c *config) {
		if h != nil {
			c.hasher = h
		}
	}
}

// WithTerminatingReplicas sets the DeploymentReplicaSetTerminatingReplicas
// feature gate (default on since v1.35) for the Deployment controller. Off,
// the Deployment's status.terminatingReplicas is left nil. No decision
// depends on it. The ReplicaSet planner reads the same gate through
// [github.com/rolloutplan/rolloutplan/plan/replicaset.WithTerminatingReplicas];
// set both alike when running both planners.
func WithTerminatingReplicas(enabled bool) Option {
	return func(c *config) { c.terminatingReplicas = enabled }
}

// SurfaceOldReplicaSetErrors reports errors of the old-ReplicaSet scale-down
// (for example "when cleaning up unhealthy replicas, got invalid request to
// scale down ...", raised when an old ReplicaSet's status reports more
// available pods than its spec) as the sync's error, as the newest upstream
// development tree does. Released controllers, and the default here, swallow
// them and continue to the status update (reconcileOldReplicaSets' version-dependent error handling, upstream quirk (reconcileOldReplicaSets swallows errors)).
func SurfaceOldReplicaSetErrors() Option {
	return func(c *config) { c.surfaceOldRSErrors = true }
}

// ExactProportions computes proportional scaling's spec·(replicas+maxSurge)
// product in 64 bits. Upstream computes it in int32, which wraps for products
// above 2,147,483,647 (upstream quirk: int32 overflow in proportional scaling) and then scales ReplicaSets absurdly; the
// default reproduces that.
func ExactProportions() Option {
	return func(c *config) { c.proportion.ExactProduct = true }
}

// RollbackWithoutCreate makes the legacy rollback path (the
// deprecated.deployment.rollback.to annotation) look the new ReplicaSet up
// without creating it. Upstream creates a ReplicaSet for the template being
// abandoned first, sized as a rollout step (for Recreate: all replicas while
// old pods still run), then switches the template (upstream quirk: the legacy rollback creates a ReplicaSet for the abandoned template); the
// default reproduces that.
func RollbackWithoutCreate() Option {
	return func(c *config) { c.rollbackNoCreate = true }
}

// PodSpecsValidated is the caller's word that the pod specs of the State
// (every template Spec and pod Body) pass model.ValidateTemplatePodSpec
// and model.ValidatePodBody: Sync then validates the State with
// [model.PodSpecsValidated], without reading those documents again, and
// plans exactly as without the option. It is for a caller that checks each
// object once per version, as the apps/v1 adapter's Syncer does; given for
// a State whose pod specs were not checked, it lets templates the API
// server would refuse be planned.
func PodSpecsValidated() Option {
	return func(c *config) { c.podSpecsValidated = true }
}

// ReplicaSetsAndPodsValidated is the caller's word that every ReplicaSet of
// the State passes model.ValidateReplicaSet and every pod
// model.ValidatePod: Sync then validates the State with
// [model.ReplicaSetsAndPodsValidated], checking of them only that none is
// nil and no two share a name or UID, and plans exactly as without the
// option. It is for a caller that validates each object once per version,
// as the apps/v1 adapter's Syncer does: a controller's State holds the same
// ReplicaSets and pods of the namespace sync after sync. Given for objects
// that were not checked, it lets states the API server would refuse be
// planned.
func ReplicaSetsAndPodsValidated() Option {
	return func(c *config) { c.objectsValidated = true }
}

// validateOptions are the model validation options the caller's word
// allows.
func (c *config) validateOptions() []model.ValidateOption {
	var opts []model.ValidateOption
	if c.podSpecsValidated {
		opts = append(opts, model.PodSpecsValidated)
	}
	if c.objectsValidated {
		opts = append(opts, model.ReplicaSetsAndPodsValidated)
	}
	return opts
}

// MonotonicProportions keeps every ReplicaSet of a proportional scale moving
// in the direction of the change. Upstream derives each ReplicaSet's share
// from its own max-replicas annotation; ReplicaSets sized at different times
// disagree, and a share can then point the other way: a ReplicaSet grows
// during a scale-down and the total ends above replicas + maxSurge
// (upstream quirk: proportional scaling anomalies). The default reproduces that.
func MonotonicProportions() Option {
	return func(c *config) { c.proportion.Monotonic = true }
}
