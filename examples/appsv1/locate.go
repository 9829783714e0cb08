package appsv1

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutplan/rolloutplan/model"
)

// Locate returns err with every field path that points into s's lists
// ("replicaSets[2].spec.replicas", "pods[0].metadata.uid") prefixed by the
// object it names, as a person finds it in the input:
//
//	ReplicaSet default/web-5d7 (replicaSets[2]): spec.replicas: invalid value "-1": ...
//
// An object without a name is named by its generateName and UID instead.
// Errors that hold no [*model.ValidationError] or [*model.FieldError] are
// returned unchanged, and err itself is never modified; the result still
// matches [model.ErrInvalid] and [errors.As] a *model.ValidationError.
func (s State) Locate(err error) error {
	var ve *model.ValidationError
	if errors.As(err, &ve) {
		out := &model.ValidationError{Errors: make([]*model.FieldError, len(ve.Errors))}
		for i, fe := range ve.Errors {
			out.Errors[i] = s.locateField(fe)
		}
		return out
	}
	var fe *model.FieldError
	if errors.As(err, &fe) {
		return s.locateField(fe)
	}
	return err
}

func (s State) locateField(fe *model.FieldError) *model.FieldError {
	list, rest, ok := strings.Cut(fe.Field, "[")
	if !ok {
		return fe
	}
	digits, rest, ok := strings.Cut(rest, "]")
	i, err := strconv.Atoi(digits)
	if !ok || err != nil || i < 0 {
		return fe
	}
	var who string
	switch {
	case list == "replicaSets" && i < len(s.ReplicaSets) && s.ReplicaSets[i] != nil:
		who = identify("ReplicaSet", &s.ReplicaSets[i].ObjectMeta)
	case list == "pods" && i < len(s.Pods) && s.Pods[i] != nil:
		who = identify("Pod", &s.Pods[i].ObjectMeta)
	default:
		return fe
	}
	located := *fe
	located.Field = fmt.Sprintf("%s (%s[%d]): %s", who, list, i, strings.TrimPrefix(rest, "."))
	return &located
}

// identify names an object as kubectl does ("Pod default/web-x"), or, for
// an object without a name, by what it has.
func identify(kind string, m *metav1.ObjectMeta) string {
	if m.Name != "" {
		return kind + " " + m.Namespace + "/" + m.Name
	}
	var parts []string
	if m.GenerateName != "" {
		parts = append(parts, fmt.Sprintf("generateName %q", m.GenerateName))
	}
	if m.UID != "" {
		parts = append(parts, fmt.Sprintf("uid %q", m.UID))
	}
	if len(parts) == 0 {
		parts = append(parts, "no name, generateName or uid")
	}
	return fmt.Sprintf("%s %s/<unnamed: %s>", kind, m.Namespace, strings.Join(parts, ", "))
}
