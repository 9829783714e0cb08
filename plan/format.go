package plan

import (
	"strconv"
	"strings"
	"time"
)

// String renders the snapshot on one line: the time, the Deployment and the
// names and sizes of its ReplicaSets, and how many pods it holds. For
// example:
//
//	State at 2026-01-01T10:00:00Z: Deployment default/web gen 2: replicas 3, ...; ReplicaSets [web-6d4(3) web-7f9(1)]; 4 pods
//
// Use the String methods of model.Deployment, model.ReplicaSet and
// model.Pod for the details of one object.
func (s State) String() string {
	var b strings.Builder
	b.WriteString("State at ")
	if s.Now.IsZero() {
		b.WriteString("<zero now>")
	} else {
		b.WriteString(s.Now.UTC().Format(time.RFC3339Nano))
	}
	b.WriteString(": ")
	b.WriteString(s.Deployment.String())
	b.WriteString("; ReplicaSets [")
	for i, rs := range s.ReplicaSets {
		if i > 0 {
			b.WriteByte(' ')
		}
		if rs == nil {
			b.WriteString("<nil>")
			continue
		}
		b.WriteString(shortName(rs.Name))
		b.WriteByte('(')
		if rs.Spec.Replicas == nil {
			b.WriteString("unset")
		} else {
			b.WriteString(strconv.Itoa(int(*rs.Spec.Replicas)))
		}
		b.WriteByte(')')
	}
	b.WriteString("]; ")
	b.WriteString(strconv.Itoa(len(s.Pods)))
	b.WriteString(" pods")
	return b.String()
}

// GoString is String: rapid prints the values it draws with %#v, and a
// snapshot full of pointers is unreadable in Go syntax.
func (s State) GoString() string { return s.String() }

// String renders the plan on one line: each action as kind and object (with
// the size written for ReplicaSet writes), where a real API server would
// reject the first one, the number of events, the requeue, and
// the first note of a plan without actions. For example:
//
//	Plan [CreateReplicaSet default/web-7f9(1) UpdateDeploymentStatus default/web]; 2 events; requeue after 10m0s
//	Plan []; note DeploymentPaused
func (p Plan) String() string {
	var b strings.Builder
	b.WriteString("Plan [")
	for i, a := range p.Actions {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(a.Kind))
		b.WriteByte(' ')
		if a.Object.Namespace != "" {
			b.WriteString(shortName(a.Object.Namespace))
			b.WriteByte('/')
		}
		b.WriteString(shortName(a.Object.Name))
		if n, ok := a.replicasWritten(); ok {
			b.WriteByte('(')
			b.WriteString(strconv.Itoa(int(n)))
			b.WriteByte(')')
		}
	}
	b.WriteByte(']')
	if i, ok := p.Rejected(); ok {
		b.WriteString("; rejected from action ")
		b.WriteString(strconv.Itoa(i))
	}
	if n := len(p.Events); n > 0 {
		b.WriteString("; ")
		b.WriteString(strconv.Itoa(n))
		if n == 1 {
			b.WriteString(" event")
		} else {
			b.WriteString(" events")
		}
	}
	switch p.Requeue.Kind {
	case RequeueNone:
	case RequeueAfter:
		b.WriteString("; requeue after ")
		b.WriteString(p.Requeue.After.String())
	default:
		b.WriteString("; requeue ")
		b.WriteString(string(p.Requeue.Kind))
	}
	if len(p.Actions) == 0 && len(p.Notes) > 0 {
		b.WriteString("; note ")
		b.WriteString(string(p.Notes[0].Code))
	}
	return b.String()
}

// shortName cuts a name longer than 64 bytes (at a character boundary), so
// that one line stays one line.
func shortName(s string) string {
	const limit = 64
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// replicasWritten returns the spec.replicas a ReplicaSet write sends.
func (a Action) replicasWritten() (int32, bool) {
	switch {
	case a.ReplicaSet != nil && a.ReplicaSet.Spec.Replicas != nil:
		return *a.ReplicaSet.Spec.Replicas, true
	case a.Update != nil:
		return a.Update.Replicas, true
	}
	return 0, false
}
