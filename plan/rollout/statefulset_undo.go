package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// ErrNoLastRevision is kubectl rollout undo's error, with its text, for a
// StatefulSet or DaemonSet asked to go back to its previous revision (no
// --to-revision) with fewer than two ControllerRevisions in its history.
var ErrNoLastRevision = errors.New("no last revision to roll back to")

// The refusals of kubectl's default pauser and resumer for every kind but
// a Deployment (StatefulSets, DaemonSets), with kubectl's texts: only
// Deployments can be paused. kubectl reports them after the resource and
// name, as in
//
//	statefulsets.apps "web" pausing is not supported
var (
	// ErrPauseNotSupported is rollout pause's refusal.
	ErrPauseNotSupported = errors.New("pausing is not supported")
	// ErrResumeNotSupported is rollout resume's refusal.
	ErrResumeNotSupported = errors.New("resuming is not supported")
)

// StatefulSetUndoResult is what kubectl rollout undo does to a StatefulSet
// when it succeeds.
type StatefulSetUndoResult struct {
	// Output is what kubectl prints after the object's name: [RolledBack],
	// or "skipped rollback (current template already matches revision N)",
	// N as requested (0 for the previous revision), when the target's data
	// already is the StatefulSet's (no patch).
	Output string
	// Target is the ControllerRevision rolled back to, one of the caller's.
	Target *model.ControllerRevision
	// Patch is the strategic merge patch sent to the StatefulSet
	// ([StrategicMergePatchType]): the target's data as stored, byte for
	// byte (its template with "$patch":"replace"). Nil when skipped.
	Patch []byte
}

// StatefulSetUndo returns what kubectl rollout undo --to-revision=toRevision
// does to s (0 is the previous revision), in kubectl's order:
//
//  1. toRevision < 0: "unable to find specified revision -1 in history";
//  2. the history, as [StatefulSetHistory] takes it (an invalid selector is
//     an error);
//  3. toRevision 0 with fewer than two revisions: [ErrNoLastRevision];
//  4. the target: for toRevision > 0 the first revision in name order with
//     that number, else "unable to find specified revision N in history";
//     for 0 the second-highest after kubectl's sort by number (sort.Sort,
//     not stable: of revisions sharing a number, the one it leaves there);
//  5. the target's data equal, byte for byte, to the patch kubectl builds
//     from s's template ([StatefulSetTemplatePatch]): the "skipped rollback"
//     output and no patch;
//  6. otherwise the target's data as the patch, and [RolledBack].
//
// A revision's data is its Data field, or when that is empty the patch of
// its Template. encode renders templates as a client sends them; nil means
// [CanonicalTemplateJSON], whose bytes are not the API's, so that a
// revision created by the controller then never counts as current. The
// apps/v1 adapter's encoder gives kubectl's decision exactly.
func StatefulSetUndo(s *model.StatefulSet, revisions []*model.ControllerRevision, toRevision int64, encode TemplateEncoder) (StatefulSetUndoResult, error) {
	target, err := statefulSetRollbackTarget(s, revisions, toRevision)
	if err != nil {
		return StatefulSetUndoResult{}, err
	}
	if encode == nil {
		encode = CanonicalTemplateJSON
	}
	current, err := StatefulSetTemplatePatch(s.Spec.Template, encode)
	if err != nil {
		return StatefulSetUndoResult{}, fmt.Errorf("statefulset %s: spec.template: %w", s.Name, err)
	}
	data := []byte(target.Data)
	if target.Data == "" {
		if data, err = StatefulSetTemplatePatch(target.Template, encode); err != nil {
			return StatefulSetUndoResult{}, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
		}
	}
	if bytes.Equal(current, data) {
		return StatefulSetUndoResult{Output: (&revision.AlreadyCurrentError{Revision: toRevision}).Error(), Target: target}, nil
	}
	return StatefulSetUndoResult{Output: RolledBack, Target: target, Patch: data}, nil
}

// StatefulSetUndoDryRun returns what kubectl rollout undo --dry-run=client
// prints after the StatefulSet's name: "will roll back to " and the target
// revision's template (its Template field) in [DescribeTemplate]'s layout.
// The target and its errors are [StatefulSetUndo]'s; a client dry run does
// not check whether the template is already current.
func StatefulSetUndoDryRun(s *model.StatefulSet, revisions []*model.ControllerRevision, toRevision int64) (string, error) {
	target, err := statefulSetRollbackTarget(s, revisions, toRevision)
	if err != nil {
		return "", err
	}
	out, err := DescribeTemplate(target.Template)
	if err != nil {
		return "", fmt.Errorf("revision %d: %w", target.Revision, err)
	}
	return "will roll back to " + out, nil
}

// statefulSetRollbackTarget is kubectl's choice of the revision to roll s
// back to, with its errors.
func statefulSetRollbackTarget(s *model.StatefulSet, revisions []*model.ControllerRevision, toRevision int64) (*model.ControllerRevision, error) {
	if s == nil {
		return nil, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	if toRevision < 0 {
		return nil, &revision.RevisionNotFoundError{Revision: toRevision}
	}
	history, err := statefulSetHistory(s, revisions)
	if err != nil {
		return nil, err
	}
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

// byRevisionNumber orders ControllerRevisions by number for sort.Sort.
type byRevisionNumber []*model.ControllerRevision

func (h byRevisionNumber) Len() int           { return len(h) }
func (h byRevisionNumber) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h byRevisionNumber) Less(i, j int) bool { return h[i].Revision < h[j].Revision }

// StatefulSetTemplatePatch returns the strategic merge patch kubectl
// rollout undo builds from a StatefulSet's template to compare with a
// revision's data: encode's JSON of t, read as generic JSON (integers that
// fit int64 stay integers, other numbers become float64), with the
// directive "$patch":"replace" added, under {"spec":{"template":...}},
// encoded again by encoding/json (keys sorted, HTML characters escaped):
//
//	{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{...}}}}
//
// The StatefulSet controller records the same bytes for templates without
// integers beyond 2^53 (it reads numbers as float64), so a revision it
// created for t compares equal. encode nil means [CanonicalTemplateJSON].
// The error is encode's, or its output not being one JSON object.
func StatefulSetTemplatePatch(t model.PodTemplate, encode TemplateEncoder) ([]byte, error) {
	if encode == nil {
		encode = CanonicalTemplateJSON
	}
	b, err := encode(t)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("encoded template: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("encoded template: data after the JSON object")
	}
	tmpl, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("encoded template: not a JSON object")
	}
	if _, err := preserveInts(tmpl); err != nil {
		return nil, fmt.Errorf("encoded template: %w", err)
	}
	tmpl["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
}

// preserveInts replaces every json.Number in v (in place for maps and
// slices) by an int64 when its text parses as one, else by its float64, as
// kubectl's JSON reader does.
func preserveInts(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i, nil
		}
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", x, err)
		}
		return f, nil
	case map[string]any:
		for k, e := range x {
			c, err := preserveInts(e)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
	case []any:
		for i, e := range x {
			c, err := preserveInts(e)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
	}
	return v, nil
}

// StatefulSetRestart returns the patch kubectl rollout restart sends to s:
// the pod template annotation kubectl.kubernetes.io/restartedAt set to now
// in RFC 3339, as a strategic merge patch, exactly as for a Deployment
// ([Restart]) except that nothing is refused (StatefulSets have no
// spec.paused). When the annotation already holds that value the patch is
// "{}" (kubectl then reports that a restart was triggered within the past
// second). A nil s is an error.
func StatefulSetRestart(s *model.StatefulSet, now time.Time) ([]byte, error) {
	if s == nil {
		return nil, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	at := now.Format(time.RFC3339)
	if v, ok := s.Spec.Template.Annotations[model.RestartedAtAnnotation]; ok && v == at {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{model.RestartedAtAnnotation: at}}}}})
}

// StatefulSetPause is kubectl rollout pause on a StatefulSet: always
// [ErrPauseNotSupported], and no patch. A nil s is an error.
func StatefulSetPause(s *model.StatefulSet) ([]byte, error) {
	if s == nil {
		return nil, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	return nil, ErrPauseNotSupported
}

// StatefulSetResume is kubectl rollout resume on a StatefulSet: always
// [ErrResumeNotSupported], and no patch. A nil s is an error.
func StatefulSetResume(s *model.StatefulSet) ([]byte, error) {
	if s == nil {
		return nil, &model.FieldError{Field: "statefulset", Detail: "must not be nil"}
	}
	return nil, ErrResumeNotSupported
}
