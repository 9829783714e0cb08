package appsv1

import (
	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	core "k8s.io/api/core/v1"
)

// ComputeHash returns the pod-template-hash the Kubernetes Deployment
// controller computes for t (upstream controller.ComputeHash): FNV-1a over the go-spew dump of the
// v1.PodTemplateSpec value (indent " ", sorted map keys, no methods, no
// pointer addresses, no capacities, "%#v"), then collisionCount mixed in
// as upstream does (8 little-endian bytes when non-nil) and rendered by
// [hash.Encode].
//
// The dump includes the Go type layout of k8s.io/api/core/v1, so the result
// matches a cluster whose kube-controller-manager was built with the same
// minor version as this module's k8s.io/api (v0.36, Kubernetes v1.36).
// Hash t as the controller sees it: as decoded from the API server
// (defaulted, quantities in the canonical form the server writes; a
// resource.Quantity parsed from "0.5" dumps differently from one parsed from
// "500m"), without the pod-template-hash label. A nil t hashes as an empty
// template.
func ComputeHash(t *core.PodTemplateSpec, collisionCount *int32) string {
	var v core.PodTemplateSpec
	if t != nil {
		v = *t
	}
	return finishHash(templateState(&v), collisionCount)
}

// templateState is the FNV-1a state after the go-spew dump of *t, before
// the collision count.
func templateState(t *core.PodTemplateSpec) uint32 {
	w := newSpewWriter(false)
	w.lit(&podTemplateType)
	spewPodTemplateSpec(&w, t)
	return w.h
}

// finishHash mixes collisionCount into a template's state and renders the
// hash.
func finishHash(state uint32, collisionCount *int32) string {
	w := spewWriter{h: state}
	return hash.Encode(w.sum(collisionCount))
}

// PodTemplateHash is a [plan.Hasher] that reproduces upstream's hash for a
// template converted by [TemplateToModel]: it rebuilds the v1.PodTemplateSpec
// with [TemplateFromModel] and hashes it with [ComputeHash]. A template whose
// Spec is not a v1.PodTemplateSpec document (one [TemplateToModel] never
// produces) falls back to rolloutplan's own [hash.ComputeHash], so planning
// still yields a valid, if non-upstream, name.
//
// [Sync] and [Syncer] need no round trip: they hash the Deployment's
// template from the apps/v1 object it was converted from, as upstream
// hashes the object it holds. For a template decoded from the API server
// both give the same name; a Go-built template that JSON would change (an
// empty list where the round trip makes nil) is named by its own value
// there.
func PodTemplateHash(t model.PodTemplate, collisionCount *int32) string {
	state, ok := modelTemplateState(t)
	if !ok {
		return hash.ComputeHash(t, collisionCount)
	}
	return finishHash(state, collisionCount)
}

// modelTemplateState is templateState of the v1.PodTemplateSpec t converts
// back to; false when t's Spec is not such a document.
func modelTemplateState(t model.PodTemplate) (uint32, bool) {
	tmpl, err := TemplateFromModel(t)
	if err != nil {
		return 0, false
	}
	return templateState(&tmpl), true
}

var _ plan.Hasher = PodTemplateHash

// WithUpstreamHash is plan.WithHasher(PodTemplateHash): the option that makes
// [plan.Sync] name new ReplicaSets exactly as a v1.36 cluster does.
func WithUpstreamHash() plan.Option { return plan.WithHasher(PodTemplateHash) }
