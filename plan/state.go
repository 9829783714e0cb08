package plan

import (
	"errors"
	"strings"
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
	// reference. Order does not matter. ReplicaSets of other namespaces (an
	// empty namespace included) are ignored, as upstream's namespaced lister
	// never returns them, and a NoteOtherNamespace note counts them.
	ReplicaSets []*model.ReplicaSet
	// Pods are the pods of the namespace. Only the Recreate strategy reads
	// them (to wait for old pods to stop); other syncs accept nil. A pod
	// counts for the ReplicaSet its controller reference names by kind, name
	// and UID, whatever its labels; pods of other namespaces are ignored
	// like ReplicaSets.
	Pods []*model.Pod
	// Now is the controller's clock: the time of this sync. It must be set
	// (the planner never reads a clock); a zero Now is rejected.
	Now time.Time
}

// Validate checks the snapshot with model.Validate, except for two rules
// the API server enforces but the controller does not depend on, so that
// [Sync] plans such objects as upstream does:
//
//   - a selector that is non-nil but has neither matchLabels nor
//     matchExpressions: upstream answers it with a SelectingAll event;
//   - spec.progressDeadlineSeconds not greater than minReadySeconds (or not
//     positive): upstream simply applies the deadline (the recorded
//     controller syncs such Deployments; conformance cases s1-0075, s1-0183).
//
// It also rejects a zero Now (field "now"): the planner has no clock, and a
// zero time would silently age every condition and deadline.
func (s State) Validate() error {
	return s.validate(nil)
}

// validate is Validate with the model's validation options opts (see
// PodSpecsValidated and ReplicaSetsAndPodsValidated).
func (s State) validate(opts []model.ValidateOption) error {
	err := s.validateObjects(opts)
	if !s.Now.IsZero() {
		return err
	}
	now := &model.FieldError{Field: "now", Detail: "must be set: the planner reads no clock (pass the time of the sync, for example time.Now() in a controller)"}
	var verr *model.ValidationError
	if errors.As(err, &verr) {
		return &model.ValidationError{Errors: append([]*model.FieldError{now}, verr.Errors...)}
	}
	if err != nil {
		return err
	}
	return &model.ValidationError{Errors: []*model.FieldError{now}}
}

// validateObjects is validate without the check of Now.
func (s State) validateObjects(opts []model.ValidateOption) error {
	err := model.Validate(s.Deployment, s.ReplicaSets, s.Pods, opts...)
	if err == nil || s.Deployment == nil {
		return err
	}
	var verr *model.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	emptySelector := s.Deployment.Spec.Selector.IsEmpty()
	kept := make([]*model.FieldError, 0, len(verr.Errors))
	for _, fe := range verr.Errors {
		if field, ok := strings.CutPrefix(fe.Field, "deployment."); !ok || !plannedAnyway(field, emptySelector) {
			kept = append(kept, fe)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return &model.ValidationError{Errors: kept}
}

// plannedAnyway reports whether an error of model's Deployment validation
// at field (relative to the Deployment, e.g. "spec.selector") breaks one of
// the two rules Validate lets through (see there). emptySelector tells
// whether the Deployment's selector is empty.
func plannedAnyway(field string, emptySelector bool) bool {
	switch field {
	case "spec.selector":
		return emptySelector
	case "spec.progressDeadlineSeconds":
		return true
	}
	return false
}
