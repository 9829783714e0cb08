package plan

import (
	"errors"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// State is the snapshot one sync plans over.
type State struct {
	// Deployment is the Deployment to sync, as read from the API (defaulted;
	// apply model.Default to hand-written objects).
	Deployment *model.Deployment
	// ReplicaSets are all ReplicaSets of the Deployment's namespace: upstream
	// lists the namespace and then claims by selector and controller
	// reference. Order does not matter.
	ReplicaSets []*model.ReplicaSet
	// Pods are the pods of the namespace. Only the Recreate strategy reads
	// them (to wait for old pods to stop); other syncs accept nil.
	Pods []*model.Pod
	// Now is the controller's clock.
	Now time.Time
}

// Validate checks the snapshot with model.Validate, with one exception: a
// Deployment selector that is non-nil but has neither matchLabels nor
// matchExpressions is accepted, because upstream answers it with a
// SelectingAll event (and [Sync] does the same).
func (s State) Validate() error {
	err := model.Validate(s.Deployment, s.ReplicaSets, s.Pods)
	if err == nil || s.Deployment == nil || !s.Deployment.Spec.Selector.IsEmpty() {
		return err
	}
	var verr *model.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	kept := make([]*model.FieldError, 0, len(verr.Errors))
	for _, fe := range verr.Errors {
		if fe.Field != "deployment.spec.selector" {
			kept = append(kept, fe)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return &model.ValidationError{Errors: kept}
}
