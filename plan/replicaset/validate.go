package replicaset

import (
	"errors"
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// validate checks what Sync relies on and returns a *model.ValidationError
// naming every bad field, with paths such as "replicaSet.spec.replicas" and
// "pods[3].metadata.uid". On success it returns the index in pods of every
// pod name of rs's namespace, for Sync to reuse.
//
// objectsValidated is the caller's word (ReplicaSetsAndPodsValidated) that
// rs passes model.ValidateReplicaSet and every pod model.ValidatePod: those
// rules are then left out, the others applied.
func validate(rs *model.ReplicaSet, pods []*model.Pod, replicaSets []*model.ReplicaSet, objectsValidated bool) (map[string]int, error) {
	var errs []*model.FieldError
	add := func(field, value, detail string) {
		errs = append(errs, &model.FieldError{Field: field, Value: value, Detail: detail})
	}
	if rs == nil {
		add("replicaSet", "", "must not be nil")
		return nil, &model.ValidationError{Errors: errs}
	}
	if objectsValidated {
		// rs passed model.ValidateReplicaSet: nothing to add.
	} else if err := model.ValidateReplicaSet(rs); err != nil {
		var ve *model.ValidationError
		if !errors.As(err, &ve) {
			add("replicaSet", "", err.Error())
		} else {
			for _, fe := range ve.Errors {
				c := *fe
				c.Field = "replicaSet." + c.Field
				errs = append(errs, &c)
			}
		}
	}
	// The API server refuses an empty selector (apps/v1 validation of a
	// ReplicaSet spec): it would select, and adopt, every pod of the
	// namespace.
	if sel := rs.Spec.Selector; sel != nil && sel.IsEmpty() {
		add("replicaSet.spec.selector", "{}", "empty selector is invalid: it would select every pod of the namespace")
	}
	// The API server refuses a ReplicaSet whose selector does not select its
	// own template; the controller would otherwise create pods it never
	// counts, without end.
	if m, err := model.NewMatcher(rs.Spec.Selector); err == nil && rs.Spec.Selector != nil && !m.Matches(rs.Spec.Template.Labels) {
		add("replicaSet.spec.template.metadata.labels", model.FormatLabels(rs.Spec.Template.Labels), "`selector` does not match template `labels`")
	}
	for i, r := range replicaSets {
		if r == nil {
			add(fmt.Sprintf("replicaSets[%d]", i), "", "must not be nil")
		}
	}
	names := make(map[string]int, len(pods))
	uids := make(map[string]int, len(pods))
	for i, p := range pods {
		// Formatted only on error: the common case has thousands of pods.
		path := func() string { return fmt.Sprintf("pods[%d]", i) }
		if p == nil {
			add(path(), "", "must not be nil")
			continue
		}
		if p.Namespace != rs.Namespace {
			continue
		}
		if objectsValidated {
			// p passed model.ValidatePod.
		} else if err := model.ValidatePod(p); err != nil {
			var ve *model.ValidationError
			if errors.As(err, &ve) {
				for _, fe := range ve.Errors {
					c := *fe
					c.Field = path() + "." + c.Field
					errs = append(errs, &c)
				}
			}
		}
		if p.UID == "" {
			add(path()+".metadata.uid", "", "must not be empty: adoption patches and ranking ties use it")
		} else if j, dup := uids[p.UID]; dup {
			add(path()+".metadata.uid", p.UID, fmt.Sprintf("duplicate pod UID (also pods[%d])", j))
		} else {
			uids[p.UID] = i
		}
		if p.Name == "" {
			continue
		}
		if j, dup := names[p.Name]; dup {
			add(path()+".metadata.name", p.Name, fmt.Sprintf("duplicate pod name (also pods[%d])", j))
		} else {
			names[p.Name] = i
		}
	}
	if len(errs) == 0 {
		return names, nil
	}
	return nil, &model.ValidationError{Errors: errs}
}
