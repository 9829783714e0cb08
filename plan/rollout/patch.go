package rollout

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// StrategicMergePatchType is the content type of the patches of [Restart],
// [Pause] and [Resume].
const StrategicMergePatchType = "application/strategic-merge-patch+json"

// The refusals of kubectl's default restarter, pauser and resumer, with
// kubectl's texts (kubectl prints them after the object's name).
var (
	ErrRestartPaused = errors.New("can't restart paused deployment (run rollout resume first)")
	ErrAlreadyPaused = errors.New("is already paused")
	ErrNotPaused     = errors.New("is not paused")
)

// Restart returns the patch kubectl rollout restart sends to d: the pod
// template annotation kubectl.kubernetes.io/restartedAt set to now in RFC
// 3339 (kubectl formats its local clock, so now's location is kept), as a
// strategic merge patch. When the annotation already holds that value the
// patch is empty, "{}" (kubectl then reports that nothing changed). A paused
// Deployment is [ErrRestartPaused].
//
//	{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2025-06-04T19:44:41Z"}}}}}
func Restart(d *model.Deployment, now time.Time) ([]byte, error) {
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	if d.Spec.Paused {
		return nil, ErrRestartPaused
	}
	at := now.Format(time.RFC3339)
	if v, ok := d.Spec.Template.Annotations[model.RestartedAtAnnotation]; ok && v == at {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{model.RestartedAtAnnotation: at}}}}})
}

// Pause returns the patch kubectl rollout pause sends, {"spec":{"paused":true}},
// or [ErrAlreadyPaused].
func Pause(d *model.Deployment) ([]byte, error) {
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	if d.Spec.Paused {
		return nil, ErrAlreadyPaused
	}
	return []byte(`{"spec":{"paused":true}}`), nil
}

// Resume returns the patch kubectl rollout resume sends,
// {"spec":{"paused":null}} (paused is omitted when false, so the patch
// deletes it), or [ErrNotPaused].
func Resume(d *model.Deployment) ([]byte, error) {
	if d == nil {
		return nil, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	if !d.Spec.Paused {
		return nil, ErrNotPaused
	}
	return []byte(`{"spec":{"paused":null}}`), nil
}
