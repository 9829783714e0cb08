package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// ErrInvalidJSONDoc is the text kubectl's strategic merge reports for
// revision data that is not a JSON object; [*RevisionDataError] matches it
// (errors.Is) for such data.
var ErrInvalidJSONDoc = errors.New("invalid JSON document")

// RevisionDataError is a ControllerRevision whose data kubectl cannot apply
// to the DaemonSet: data that is not one JSON object ([ErrInvalidJSONDoc],
// kubectl's own text), or a patch whose result is not a DaemonSet (a
// spec or spec.template that is neither an object nor null, template
// labels or annotations that are not string maps, an unknown "$patch"
// directive on the template); for those kubectl's text is the JSON
// decoder's, not this one's.
type RevisionDataError struct {
	// Revision is the ControllerRevision's name.
	Revision string
	// Err is the reason.
	Err error
}

// Error returns the reason: for data that is not a JSON object, kubectl's
// "invalid JSON document".
func (e *RevisionDataError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *RevisionDataError) Unwrap() error { return e.Err }

// DaemonSetUndoResult is what kubectl rollout undo does to a DaemonSet when
// it succeeds.
type DaemonSetUndoResult struct {
	// Output is what kubectl prints after the object's name: [RolledBack],
	// or "skipped rollback (current template already matches revision N)",
	// N as requested (0 for the previous revision), when the target's data
	// already is the patch of the DaemonSet's template (no patch).
	Output string
	// Target is the ControllerRevision rolled back to, one of the caller's.
	Target *model.ControllerRevision
	// Patch is the strategic merge patch sent to the DaemonSet
	// ([StrategicMergePatchType]): the target's data as stored, byte for
	// byte. Nil when skipped.
	Patch []byte
}

// DaemonSetUndo returns what kubectl rollout undo --to-revision=toRevision
// does to ds (0 is the previous revision), in kubectl's order:
//
//  1. toRevision < 0: "unable to find specified revision -1 in history";
//  2. the history, as [DaemonSetHistory] takes it (an invalid selector is
//     an error);
//  3. toRevision 0 with fewer than two revisions: [ErrNoLastRevision];
//  4. the target: for toRevision > 0 the first revision in name order with
//     that number, else "unable to find specified revision N in history";
//     for 0 the second-highest after kubectl's sort by number (sort.Sort,
//     not stable: of revisions sharing a number, the one it leaves there);
//  5. the target's data equal, byte for byte, to the patch kubectl builds
//     from ds's template (the bytes of [StatefulSetTemplatePatch]: kubectl
//     builds the same patch for both kinds): the "skipped rollback" output
//     and no patch;
//  6. otherwise the target's data as the patch, and [RolledBack]. kubectl
//     sends the data without reading it, so data it could not apply is sent
//     too.
//
// A revision's data is its Data field, or when that is empty the patch of
// its Template. encode renders templates as a client sends them; nil means
// [CanonicalTemplateJSON], whose bytes are not the API's, so that a
// revision the controller created then never counts as current. The
// apps/v1 adapter's encoder (appsv1.TemplateJSON) gives kubectl's decision
// exactly.
func DaemonSetUndo(ds *model.DaemonSet, revisions []*model.ControllerRevision, toRevision int64, encode TemplateEncoder) (DaemonSetUndoResult, error) {
	target, err := daemonSetRollbackTarget(ds, revisions, toRevision)
	if err != nil {
		return DaemonSetUndoResult{}, err
	}
	current, err := StatefulSetTemplatePatch(ds.Spec.Template, encode)
	if err != nil {
		return DaemonSetUndoResult{}, fmt.Errorf("daemonset %s: spec.template: %w", ds.Name, err)
	}
	data := []byte(target.Data)
	if target.Data == "" {
		if data, err = StatefulSetTemplatePatch(target.Template, encode); err != nil {
			return DaemonSetUndoResult{}, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
		}
	}
	if bytes.Equal(current, data) {
		return DaemonSetUndoResult{Output: (&revision.AlreadyCurrentError{Revision: toRevision}).Error(), Target: target}, nil
	}
	return DaemonSetUndoResult{Output: RolledBack, Target: target, Patch: data}, nil
}

// DaemonSetUndoDryRun returns what kubectl rollout undo --dry-run=client
// prints after the DaemonSet's name: "will roll back to " and the template
// the target revision restores onto ds ([DaemonSetRevisionTemplate]) in
// [DescribeTemplate]'s layout. The target and its errors are
// [DaemonSetUndo]'s; data kubectl cannot apply is a [*RevisionDataError]
// (for data that is not a JSON object, kubectl's "invalid JSON document").
// A client dry run does not check whether the template is already current.
func DaemonSetUndoDryRun(ds *model.DaemonSet, revisions []*model.ControllerRevision, toRevision int64) (string, error) {
	target, err := daemonSetRollbackTarget(ds, revisions, toRevision)
	if err != nil {
		return "", err
	}
	t, err := DaemonSetRevisionTemplate(ds, target)
	if err != nil {
		return "", err
	}
	out, err := DescribeTemplate(t)
	if err != nil {
		return "", fmt.Errorf("revision %d: %w", target.Revision, err)
	}
	return "will roll back to " + out, nil
}

// DaemonSetRevisionTemplate returns the pod template kubectl reads from
// revision r of ds: the template of ds once r's data is applied to it as a
// strategic merge patch, which for the data the DaemonSet controller
// writes, {"spec":{"template":{"$patch":"replace",...}}}, is the template
// the data holds. r's data is its Data field; when that is empty, Data is
// the encoding of r.Template, and the template is r.Template.
//
// kubectl's patch semantics are followed for data that is null or has no
// spec or no spec.template (ds's own template), and for a spec or
// spec.template that is null or carries "$patch":"delete" (the empty
// template). Data that is not a JSON object, or whose result kubectl could
// not decode as a DaemonSet (see [RevisionDataError]), is a
// [*RevisionDataError]. A spec.template without the "$patch":"replace"
// directive (merged into ds's template field by field by kubectl), and
// "$"-directives on the data or its spec, are refused with an error
// matching [ErrUnsupported]. Within the template, field types are not
// checked beyond metadata.labels and metadata.annotations: kubectl would
// fail on a template that is not a v1 PodTemplateSpec. Neither ds nor r may
// be nil.
func DaemonSetRevisionTemplate(ds *model.DaemonSet, r *model.ControllerRevision) (model.PodTemplate, error) {
	if ds == nil {
		return model.PodTemplate{}, daemonSetNil()
	}
	if r == nil {
		return model.PodTemplate{}, &model.FieldError{Field: "controllerrevision", Detail: "must not be nil"}
	}
	if r.Data == "" {
		return r.Template.DeepCopy(), nil
	}
	fail := func(err error) error {
		return &RevisionDataError{Revision: r.Name, Err: fmt.Errorf("controllerrevision %s: %w", r.Name, err)}
	}
	refuse := func(what string) error {
		return fmt.Errorf("controllerrevision %s: data: %s: %w", r.Name, what, ErrUnsupported)
	}
	doc, err := decodeJSON(r.Data)
	if err != nil {
		return model.PodTemplate{}, &RevisionDataError{Revision: r.Name, Err: ErrInvalidJSONDoc}
	}
	if doc == nil {
		return ds.Spec.Template.DeepCopy(), nil
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return model.PodTemplate{}, &RevisionDataError{Revision: r.Name, Err: ErrInvalidJSONDoc}
	}
	if k, ok := directive(top); ok {
		return model.PodTemplate{}, refuse(fmt.Sprintf("directive %q", k))
	}
	specV, ok := top["spec"]
	if !ok {
		return ds.Spec.Template.DeepCopy(), nil
	}
	if specV == nil {
		return model.PodTemplate{}, nil
	}
	spec, ok := specV.(map[string]any)
	if !ok {
		return model.PodTemplate{}, fail(errors.New("data.spec is not an object"))
	}
	if k, ok := directive(spec); ok {
		return model.PodTemplate{}, refuse(fmt.Sprintf("spec directive %q", k))
	}
	tmplV, ok := spec["template"]
	if !ok {
		return ds.Spec.Template.DeepCopy(), nil
	}
	if tmplV == nil {
		return model.PodTemplate{}, nil
	}
	tmpl, ok := tmplV.(map[string]any)
	if !ok {
		return model.PodTemplate{}, fail(errors.New("data.spec.template is not an object"))
	}
	switch d, ok := tmpl["$patch"]; {
	case !ok:
		return model.PodTemplate{}, refuse(`spec.template without "$patch": "replace" (a merge into the DaemonSet's template)`)
	case d == "delete":
		return model.PodTemplate{}, nil
	case d != "replace":
		return model.PodTemplate{}, fail(fmt.Errorf("data.spec.template: unknown patch type %v", d))
	}
	tmpl = maps.Clone(tmpl)
	delete(tmpl, "$patch")
	var out model.PodTemplate
	if metaV, ok := tmpl["metadata"]; ok && metaV != nil {
		meta, ok := metaV.(map[string]any)
		if !ok {
			return model.PodTemplate{}, fail(errors.New("data.spec.template.metadata is not an object"))
		}
		meta = maps.Clone(meta)
		for _, f := range []struct {
			key string
			to  *map[string]string
		}{{"labels", &out.Labels}, {"annotations", &out.Annotations}} {
			v, ok := meta[f.key]
			if !ok {
				continue
			}
			delete(meta, f.key)
			if v == nil {
				continue
			}
			m, ok := stringMap(v)
			if !ok {
				return model.PodTemplate{}, fail(fmt.Errorf("data.spec.template.metadata.%s is not a map of strings", f.key))
			}
			*f.to = m
		}
		tmpl["metadata"] = meta
	}
	b, err := json.Marshal(tmpl)
	if err != nil {
		return model.PodTemplate{}, fail(fmt.Errorf("data.spec.template: %w", err))
	}
	if out.Spec, err = model.CanonicalJSON(b); err != nil {
		return model.PodTemplate{}, fail(fmt.Errorf("data.spec.template: %w", err))
	}
	return out, nil
}

// decodeJSON decodes one JSON value, numbers kept as written; anything but
// white space after it is an error.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return v, nil
}

// directive returns a key of m that is a strategic merge directive ("$patch",
// "$retainKeys", "$setElementOrder/...", "$deleteFromPrimitiveList/...").
func directive(m map[string]any) (string, bool) {
	for k := range m {
		if strings.HasPrefix(k, "$") {
			return k, true
		}
	}
	return "", false
}

// stringMap converts a decoded JSON object whose values are all strings.
func stringMap(v any) (map[string]string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// daemonSetRollbackTarget is kubectl's choice of the revision to roll ds
// back to, with its errors.
func daemonSetRollbackTarget(ds *model.DaemonSet, revisions []*model.ControllerRevision, toRevision int64) (*model.ControllerRevision, error) {
	if ds == nil {
		return nil, daemonSetNil()
	}
	if toRevision < 0 {
		return nil, &revision.RevisionNotFoundError{Revision: toRevision}
	}
	history, err := daemonSetHistory(ds, revisions)
	if err != nil {
		return nil, err
	}
	return pickRevision(history, toRevision)
}

// pickRevision is kubectl's findHistory over a history in list order, with
// the errors its rollbackers report: toRevision 0 is the second-highest
// number after sort.Sort by number (history is sorted in place), any other
// the first revision with that number.
func pickRevision(history []*model.ControllerRevision, toRevision int64) (*model.ControllerRevision, error) {
	if toRevision == 0 {
		if len(history) <= 1 {
			return nil, ErrNoLastRevision
		}
		// kubectl sorts with sort.Sort by number alone; the same sort on
		// the same order leaves ties where kubectl's does.
		sort.Sort(byRevisionNumber(history))
		return history[len(history)-2], nil
	}
	for _, r := range history {
		if r.Revision == toRevision {
			return r, nil
		}
	}
	return nil, &revision.RevisionNotFoundError{Revision: toRevision}
}
