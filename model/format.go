package model

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FormatLabels renders a label map the way selectors and kubectl write it:
// key=value pairs sorted by key and joined by commas, for example
// "app=web,tier=front"; "<none>" when m is empty (upstream's
// labels.FormatLabels). Error messages and the String methods use it instead
// of Go's map syntax.
func FormatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(m[k])
	}
	return b.String()
}

// String renders d on one line with the fields a test failure needs first:
// name, generation, spec.replicas, strategy, pause, revision and the status
// counts. For example:
//
//	Deployment default/web gen 2: replicas 3, RollingUpdate (maxSurge 25%, maxUnavailable 25%), revision 2; status observed 2, replicas 4, updated 1, ready 3, available 3
//
// A nil Deployment renders as "<nil>". Long names are cut as in error
// messages.
func (d *Deployment) String() string {
	if d == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString("Deployment ")
	writeName(&b, &d.ObjectMeta)
	b.WriteString(": replicas ")
	writeInt32Ptr(&b, d.Spec.Replicas)
	b.WriteString(", ")
	if d.Spec.Strategy.Type == "" {
		b.WriteString("no strategy")
	} else {
		b.WriteString(string(d.Spec.Strategy.Type))
	}
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		b.WriteString(" (maxSurge ")
		writeIntOrString(&b, ru.MaxSurge)
		b.WriteString(", maxUnavailable ")
		writeIntOrString(&b, ru.MaxUnavailable)
		b.WriteByte(')')
	}
	if d.Spec.Paused {
		b.WriteString(", paused")
	}
	writeRevision(&b, d.Annotations)
	st := &d.Status
	b.WriteString("; status observed ")
	b.WriteString(strconv.FormatInt(st.ObservedGeneration, 10))
	writeCount(&b, "replicas", st.Replicas)
	writeCount(&b, "updated", st.UpdatedReplicas)
	writeCount(&b, "ready", st.ReadyReplicas)
	writeCount(&b, "available", st.AvailableReplicas)
	if st.TerminatingReplicas != nil {
		writeCount(&b, "terminating", *st.TerminatingReplicas)
	}
	return b.String()
}

// String renders rs on one line: name, generation, creation time, revision,
// spec.replicas and the status counts, and whether it is being deleted. For
// example:
//
//	ReplicaSet default/web-6d4 gen 1 created 2026-01-01T10:00:00Z: replicas 3, revision 1; status replicas 3, ready 3, available 2
//
// A nil ReplicaSet renders as "<nil>".
func (rs *ReplicaSet) String() string {
	if rs == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString("ReplicaSet ")
	writeName(&b, &rs.ObjectMeta)
	b.WriteString(" created ")
	b.WriteString(rs.CreationTimestamp.UTC().Format(time.RFC3339Nano))
	if rs.DeletionTimestamp != nil {
		b.WriteString(" deleting")
	}
	b.WriteString(": replicas ")
	writeInt32Ptr(&b, rs.Spec.Replicas)
	writeRevision(&b, rs.Annotations)
	b.WriteString("; status")
	b.WriteString(" replicas ")
	b.WriteString(strconv.Itoa(int(rs.Status.Replicas)))
	writeCount(&b, "ready", rs.Status.ReadyReplicas)
	writeCount(&b, "available", rs.Status.AvailableReplicas)
	if rs.Status.TerminatingReplicas != nil {
		writeCount(&b, "terminating", *rs.Status.TerminatingReplicas)
	}
	return b.String()
}

// String renders p on one line: name, owner (the controller reference's
// name), phase, readiness and whether it is being deleted. For example:
//
//	Pod default/web-6d4-x2k owner web-6d4: Running, ready since 2026-01-01T10:00:05Z
//
// A nil Pod renders as "<nil>".
func (p *Pod) String() string {
	if p == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString("Pod ")
	writeName(&b, &p.ObjectMeta)
	if ref := p.ControllerRef(); ref != nil {
		b.WriteString(" owner ")
		b.WriteString(truncateValue(ref.Name))
	}
	b.WriteString(": ")
	if p.Status.Phase == "" {
		b.WriteString("no phase")
	} else {
		b.WriteString(string(p.Status.Phase))
	}
	if c := p.ReadyCondition(); c != nil && c.Status == ConditionTrue {
		b.WriteString(", ready since ")
		b.WriteString(c.LastTransitionTime.UTC().Format(time.RFC3339Nano))
	} else {
		b.WriteString(", not ready")
	}
	if p.DeletionTimestamp != nil {
		b.WriteString(", deleting")
	}
	return b.String()
}

// writeName writes namespace/name (each cut like error values) and the
// generation when it is set.
func writeName(b *strings.Builder, m *ObjectMeta) {
	if m.Namespace != "" {
		b.WriteString(truncateValue(m.Namespace))
		b.WriteByte('/')
	}
	if m.Name == "" {
		b.WriteString("<no name>")
	} else {
		b.WriteString(truncateValue(m.Name))
	}
	if m.Generation != 0 {
		b.WriteString(" gen ")
		b.WriteString(strconv.FormatInt(m.Generation, 10))
	}
}

func writeInt32Ptr(b *strings.Builder, p *int32) {
	if p == nil {
		b.WriteString("unset")
		return
	}
	b.WriteString(strconv.Itoa(int(*p)))
}

func writeIntOrString(b *strings.Builder, v *IntOrString) {
	if v == nil {
		b.WriteString("unset")
		return
	}
	b.WriteString(truncateValue(v.String()))
}

func writeCount(b *strings.Builder, name string, n int32) {
	b.WriteString(", ")
	b.WriteString(name)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(n)))
}

func writeRevision(b *strings.Builder, annotations map[string]string) {
	if r, ok := annotations[RevisionAnnotation]; ok {
		b.WriteString(", revision ")
		b.WriteString(truncateValue(r))
	}
}
