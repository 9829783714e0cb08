package daemonset

import (
	"encoding/json"
	"maps"
	"strings"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// BurstReplicas is the most pods one sync creates, and the most it deletes,
// in one batch of writes (upstream's burstReplicas for the DaemonSet
// controller).
const BurstReplicas = 250

// Option adjusts a sync. No option reproduces upstream v1.36 with its
// default feature gates.
type Option func(*config)

// Patcher returns the data of the ControllerRevision that records
// template t (upstream getPatch: the strategic-merge patch
// {"spec":{"template":{"$patch":"replace",...}}} that restores it). The
// controller compares revisions with the DaemonSet by these bytes.
type Patcher func(t model.PodTemplate) string

type config struct {
	hasher  plan.Hasher
	patcher Patcher
	namer   replicaset.PodNamer
	// podSpecsValidated: see PodSpecsValidated.
	podSpecsValidated bool
}

func newConfig(opts []Option) config {
	c := config{hasher: hash.ComputeHash, patcher: DefaultPatch}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithHasher replaces the template hash that names the current
// ControllerRevision and labels the pods. The default, hash.ComputeHash,
// hashes rolloutplan's canonical template encoding, so names differ from a
// real cluster's; an adapter that hashes the apps/v1 object the upstream
// way (upstream controller.ComputeHash, the Deployment controller's hash)
// passes its function to reproduce upstream's names exactly. A nil h keeps
// the default.
func WithHasher(h plan.Hasher) Option {
	return func(c *config) {
		if h != nil {
			c.hasher = h
		}
	}
}

// WithPatcher replaces the encoding of a template as ControllerRevision
// data. The default, [DefaultPatch], encodes rolloutplan's canonical
// template; an adapter passes upstream's getPatch over the apps/v1 object
// so that revisions it reads (whose Data holds upstream's bytes) compare
// equal to the DaemonSet's template. A nil p keeps the default.
func WithPatcher(p Patcher) Option {
	return func(c *config) {
		if p != nil {
			c.patcher = p
		}
	}
}

// PodSpecsValidated is the caller's word that the pod specs of the State
// (the DaemonSet's template Spec and every pod Body) pass
// model.ValidateTemplatePodSpec and model.ValidatePodBody: Sync then
// validates the State with [model.PodSpecsValidated], without reading
// those documents again, and plans exactly as without the option. It is
// for a caller that checks each object once per version, as the apps/v1
// adapter's DaemonSetSyncer does; given for a State whose pod specs were
// not checked, it lets templates the API server would refuse be planned.
func PodSpecsValidated() Option {
	return func(c *config) { c.podSpecsValidated = true }
}

// WithPodNamer replaces the naming of created pods (see the package
// documentation, "Names of created pods"). A nil namer keeps the default.
func WithPodNamer(namer replicaset.PodNamer) Option {
	return func(c *config) { c.namer = namer }
}

// DefaultPatch is the default [Patcher]: canonical JSON of
// {"spec":{"template":{"$patch":"replace","metadata":{"labels":...,
// "annotations":...},...}}}, where the template's Spec, when it is a JSON
// object, supplies the other members of the template (its "spec", and any
// other metadata under "metadata"), and is otherwise kept as the member
// "spec". Equal templates give equal data.
func DefaultPatch(t model.PodTemplate) string {
	tmpl := map[string]any{}
	var rest map[string]any
	if t.Spec != "" {
		dec := json.NewDecoder(strings.NewReader(t.Spec))
		dec.UseNumber() // numbers are kept as written
		if err := dec.Decode(&rest); err != nil {
			rest = map[string]any{"spec": t.Spec}
		}
	}
	maps.Copy(tmpl, rest)
	meta, _ := tmpl["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	if t.Labels != nil {
		meta["labels"] = t.Labels
	}
	if t.Annotations != nil {
		meta["annotations"] = t.Annotations
	}
	if len(meta) > 0 {
		tmpl["metadata"] = meta
	}
	tmpl["$patch"] = "replace"
	b, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
	if err != nil {
		// Only strings, maps and decoded JSON values are encoded.
		return ""
	}
	return string(b)
}
