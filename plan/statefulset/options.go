package statefulset

import (
	"encoding/json"

	"github.com/rolloutplan/rolloutplan/model"
)

// Option adjusts a sync. The zero set of options reproduces upstream v1.36
// with its default feature gates, except for the bytes of revision data (see
// [Encoder]).
type Option func(*config)

// Encoder returns the data of the ControllerRevision that records a
// template: the bytes revisions are compared by and hashed into their names
// ([HashRevision]). Upstream's are the strategic-merge patch
// {"spec":{"template":{"$patch":"replace",...}}} of the apps/v1 template,
// JSON with sorted keys, which only code that has the apps/v1 object can
// produce: the apps/v1 adapter (examples/appsv1) passes such an encoder to
// reproduce revision names exactly. An error makes [Sync] fail as invalid
// input.
type Encoder func(t model.PodTemplate) (string, error)

type config struct {
	encode         Encoder
	defaults       func(model.PodTemplate) (model.PodTemplate, error)
	maxUnavailable bool
	semantic       bool
	// podSpecsValidated: see PodSpecsValidated.
	podSpecsValidated bool
}

func newConfig(opts []Option) config {
	c := config{encode: EncodeTemplate, semantic: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithEncoder replaces the revision data encoder; the default is
// [EncodeTemplate]. A nil e keeps the default.
func WithEncoder(e Encoder) Option {
	return func(c *config) {
		if e != nil {
			c.encode = e
		}
	}
}

// PodSpecsValidated is the caller's word that the pod specs of the State
// (the set's template Spec and every pod Body) pass
// model.ValidateTemplatePodSpec and model.ValidatePodBody: Sync then
// validates the State with [model.PodSpecsValidated], without reading
// those documents again, and plans exactly as without the option. It is
// for a caller that checks each object once per version, as the apps/v1
// adapter's StatefulSetSyncer does; given for a State whose pod specs were
// not checked, it lets templates the API server would refuse be planned.
func PodSpecsValidated() Option {
	return func(c *config) { c.podSpecsValidated = true }
}

// WithMaxUnavailable sets the MaxUnavailableStatefulSet feature gate, off
// by default in v1.36 (beta, disabled). Off, a rolling update replaces one
// pod at a time and waits for each replaced pod to be available; on, it
// deletes outdated pods from the top down while fewer than
// rollingUpdate.maxUnavailable (default 1; a percentage of replicas rounded
// down, at least 1) pods are unavailable, without waiting in between.
func WithMaxUnavailable(enabled bool) Option {
	return func(c *config) { c.maxUnavailable = enabled }
}

// WithSemanticRevisionComparison sets the
// StatefulSetSemanticRevisionComparison feature gate, on by default: when no
// revision's data equals the set's, the latest revision still counts as the
// set's when its template re-encodes to the set's data (its stored bytes
// differing only in serialization), after the API defaulting given by
// [WithRevisionDefaults].
func WithSemanticRevisionComparison(enabled bool) Option {
	return func(c *config) { c.semantic = enabled }
}

// WithRevisionDefaults gives the API server's defaulting of a pod template,
// which the semantic revision comparison applies to the latest revision's
// template before re-encoding it, as upstream does: a revision stored
// before a field gained a default then still counts as the set's. Without
// it (the default) the template is compared as the revision records it,
// and such a revision makes the planner create a new one where upstream
// does not. The apps/v1 adapter passes its defaulting. An error makes the
// comparison fail (the revision is not the set's), as upstream's does.
func WithRevisionDefaults(f func(model.PodTemplate) (model.PodTemplate, error)) Option {
	return func(c *config) { c.defaults = f }
}

// EncodeTemplate is the default [Encoder]: JSON with sorted keys,
//
//	{"spec":{"template":{"$patch":"replace","metadata":{"annotations":{...},"labels":{...}},"spec":"<t.Spec>"}}}
//
// with t.Spec as a JSON string and empty maps left out. It is deterministic
// and tells different templates apart, but its bytes are not upstream's, so
// revision names differ from a real cluster's.
func EncodeTemplate(t model.PodTemplate) (string, error) {
	meta := map[string]any{}
	if len(t.Labels) > 0 {
		meta["labels"] = t.Labels
	}
	if len(t.Annotations) > 0 {
		meta["annotations"] = t.Annotations
	}
	tmpl := map[string]any{"$patch": "replace", "metadata": meta}
	if t.Spec != "" {
		tmpl["spec"] = t.Spec
	}
	b, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
	return string(b), err
}
