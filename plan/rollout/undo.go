package rollout

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// RolledBack is the word kubectl rollout undo reports after sending its
// patch ("deployment.apps/web rolled back").
const RolledBack = "rolled back"

// JSONPatchType is the content type of [UndoResult.Patch].
const JSONPatchType = "application/json-patch+json"

// TemplateEncoder encodes a pod template as the JSON a client sends for a
// v1 PodTemplateSpec. kubectl marshals the Go struct, so its bytes follow
// the struct's field order; the apps/v1 adapter supplies that encoder. The
// default, [CanonicalTemplateJSON], sorts keys.
type TemplateEncoder func(model.PodTemplate) ([]byte, error)

// CanonicalTemplateJSON encodes t as one JSON object: t.Spec (the template
// without labels and annotations) with labels and annotations put back
// under metadata, keys sorted. It equals what kubectl sends as JSON, not
// byte for byte.
func CanonicalTemplateJSON(t model.PodTemplate) ([]byte, error) {
	doc := map[string]any{}
	if t.Spec != "" {
		if err := json.Unmarshal([]byte(t.Spec), &doc); err != nil {
			return nil, &model.FieldError{Field: "spec.template", Detail: "not a JSON object: " + err.Error()}
		}
	}
	meta, _ := doc["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	if len(t.Labels) > 0 {
		meta["labels"] = t.Labels
	}
	if len(t.Annotations) > 0 {
		meta["annotations"] = t.Annotations
	}
	doc["metadata"] = meta
	return json.Marshal(doc)
}

// UndoResult is what kubectl rollout undo does when it succeeds.
type UndoResult struct {
	// Output is what kubectl prints after the object's name: [RolledBack],
	// or "skipped rollback (current template already matches revision N)"
	// when the target's template already is the Deployment's (no patch).
	Output string
	// Target is the ReplicaSet rolled back to, one of the caller's.
	Target *model.ReplicaSet
	// Patch is the JSON patch sent to the Deployment ([JSONPatchType]):
	// replace /spec/template with the target's template (without its
	// pod-template-hash label), then replace /metadata/annotations. Nil when
	// skipped.
	Patch []byte
}

// Undo returns what kubectl rollout undo --to-revision=toRevision does to d
// (0 is the previous revision): the decision is [revision.Undo]'s, in
// kubectl's order (target, then paused, then same template); the errors
// carry kubectl's texts ("unable to find specified revision 7 in history",
// `no rollout history found for deployment "web"`, "you cannot rollback a
// paused deployment; ..."). encode renders the template in the patch; nil
// means [CanonicalTemplateJSON].
func Undo(d *model.Deployment, rss []*model.ReplicaSet, toRevision int64, encode TemplateEncoder) (UndoResult, error) {
	if d == nil {
		return UndoResult{}, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	p, err := revision.Undo(d, rss, toRevision)
	if errors.Is(err, revision.ErrAlreadyCurrent) {
		return UndoResult{Output: err.Error(), Target: p.Target}, nil
	}
	if err != nil {
		return UndoResult{}, err
	}
	if encode == nil {
		encode = CanonicalTemplateJSON
	}
	tmpl, err := encode(p.Template)
	if err != nil {
		return UndoResult{}, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
	}
	annotations := p.Annotations
	if annotations == nil {
		annotations = map[string]string{}
	}
	patch, err := json.Marshal([]any{
		map[string]any{"op": "replace", "path": "/spec/template", "value": json.RawMessage(tmpl)},
		map[string]any{"op": "replace", "path": "/metadata/annotations", "value": annotations},
	})
	if err != nil {
		return UndoResult{}, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
	}
	return UndoResult{Output: RolledBack, Target: p.Target, Patch: patch}, nil
}

// UndoDryRun returns what kubectl rollout undo --dry-run=client prints after
// the object's name: the target revision's template as stored in its
// ReplicaSet (pod-template-hash label included), in [DescribeTemplate]'s
// layout. As in kubectl, a client dry run does not check spec.paused nor
// whether the template is already current; only the target's errors apply.
func UndoDryRun(d *model.Deployment, rss []*model.ReplicaSet, toRevision int64) (string, error) {
	if d == nil {
		return "", &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	target, err := revision.RollbackTarget(d, rss, toRevision)
	if err != nil && !errors.Is(err, revision.ErrAlreadyCurrent) {
		return "", err
	}
	return DescribeTemplate(target.Spec.Template)
}
