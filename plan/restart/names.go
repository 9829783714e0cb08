package restart

import (
	"errors"
	"fmt"
	"strings"
)

// The annotations the original controller reads and writes.
const (
	// AnnotationEnabled opts a Deployment or StatefulSet in; only the value
	// [EnabledValue] does.
	AnnotationEnabled = "com.xing.deployment-restart"
	// EnabledValue is the one value of [AnnotationEnabled] that enables
	// restarts.
	EnabledValue = "enabled"
	// AnnotationChecksums holds the checksums of the configs applied to a
	// workload, as written by [FormatChecksums].
	AnnotationChecksums = "com.xing.deployment-restart.applied-config-checksums"
	// AnnotationTimestamp is set in spec.template.metadata.annotations to
	// restart a workload.
	AnnotationTimestamp = "com.xing.deployment-restart.timestamp"
)

// Kind is the lower-case kind used in full names, as the original writes
// them: "configmap", "secret", "deployment" or "statefulset".
type Kind string

// The four kinds the planner knows.
const (
	KindConfigMap   Kind = "configmap"
	KindSecret      Kind = "secret"
	KindDeployment  Kind = "deployment"
	KindStatefulSet Kind = "statefulset"
)

// IsConfig reports whether k is a ConfigMap or a Secret.
func (k Kind) IsConfig() bool { return k == KindConfigMap || k == KindSecret }

// IsWorkload reports whether k is a Deployment or a StatefulSet.
func (k Kind) IsWorkload() bool { return k == KindDeployment || k == KindStatefulSet }

// ErrUnknownKind is returned (wrapped) for a kind other than the four above.
var ErrUnknownKind = errors.New("unknown kind")

// Ref names a resource. Its [Ref.String] form "kind/namespace/name" is the
// original's full name, used as key in the checksums annotation, the catalog
// and the change queue.
type Ref struct {
	Kind      Kind
	Namespace string
	Name      string
}

// String returns the full name "kind/namespace/name".
func (r Ref) String() string { return string(r.Kind) + "/" + r.Namespace + "/" + r.Name }

// ParseRef parses a full name "kind/namespace/name". The kind must be one of
// the four known kinds and the name must not be empty.
func ParseRef(s string) (Ref, error) {
	kind, rest, ok := strings.Cut(s, "/")
	ns, name, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || name == "" || strings.Contains(name, "/") {
		return Ref{}, fmt.Errorf("full name %q: want kind/namespace/name", s)
	}
	k := Kind(kind)
	if !k.IsConfig() && !k.IsWorkload() {
		return Ref{}, fmt.Errorf("full name %q: %w %q", s, ErrUnknownKind, kind)
	}
	return Ref{Kind: k, Namespace: ns, Name: name}, nil
}

// Enabled reports whether a workload's annotations opt it in: the annotation
// [AnnotationEnabled] must be exactly "enabled". Any other value, or its
// absence, means off.
func Enabled(annotations map[string]string) bool {
	return annotations[AnnotationEnabled] == EnabledValue
}
