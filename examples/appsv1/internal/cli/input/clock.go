package input

import (
	"time"

	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// LatestTime is the latest time the state records: creation and deletion
// timestamps of its objects and the times of the Deployment's and the Pods'
// conditions. A List has no clock of its own; this is the moment it was
// certainly taken at or after. Zero when the state records no time.
func LatestTime(s appsv1.State) time.Time {
	var latest time.Time
	see := func(t time.Time) {
		if t.After(latest) {
			latest = t
		}
	}
	if d := s.Deployment; d != nil {
		see(d.CreationTimestamp.Time)
		for _, c := range d.Status.Conditions {
			see(c.LastUpdateTime.Time)
			see(c.LastTransitionTime.Time)
		}
	}
	for _, rs := range s.ReplicaSets {
		see(rs.CreationTimestamp.Time)
	}
	for _, p := range s.Pods {
		see(p.CreationTimestamp.Time)
		if p.DeletionTimestamp != nil {
			see(p.DeletionTimestamp.Time)
		}
		for _, c := range p.Status.Conditions {
			see(c.LastTransitionTime.Time)
		}
	}
	return latest
}

// LatestStatefulSetTime is LatestTime for a StatefulSet's state: creation
// and deletion timestamps of the set, its pods, ControllerRevisions and
// claims, and the times of the set's and the pods' conditions.
func LatestStatefulSetTime(s appsv1.StatefulSetState) time.Time {
	var l latest
	if set := s.StatefulSet; set != nil {
		l.meta(&set.ObjectMeta)
		for _, c := range set.Status.Conditions {
			l.see(c.LastTransitionTime.Time)
		}
	}
	l.pods(s.Pods)
	for _, r := range s.ControllerRevisions {
		l.meta(&r.ObjectMeta)
	}
	for _, c := range s.PVCs {
		l.meta(&c.ObjectMeta)
	}
	return l.t
}

// LatestDaemonSetTime is LatestTime for a DaemonSet's state: creation and
// deletion timestamps of the DaemonSet, its pods, ControllerRevisions and
// the nodes, the times of the DaemonSet's and the pods' conditions, and
// the nodes' condition times (their heartbeats).
func LatestDaemonSetTime(s appsv1.DaemonSetState) time.Time {
	var l latest
	if ds := s.DaemonSet; ds != nil {
		l.meta(&ds.ObjectMeta)
		for _, c := range ds.Status.Conditions {
			l.see(c.LastTransitionTime.Time)
		}
	}
	l.pods(s.Pods)
	for _, r := range s.ControllerRevisions {
		l.meta(&r.ObjectMeta)
	}
	for _, n := range s.Nodes {
		l.meta(&n.ObjectMeta)
		for _, c := range n.Status.Conditions {
			l.see(c.LastHeartbeatTime.Time)
			l.see(c.LastTransitionTime.Time)
		}
	}
	return l.t
}

// latest keeps the latest time it sees.
type latest struct{ t time.Time }

func (l *latest) see(t time.Time) {
	if t.After(l.t) {
		l.t = t
	}
}

func (l *latest) meta(m *metav1.ObjectMeta) {
	l.see(m.CreationTimestamp.Time)
	if m.DeletionTimestamp != nil {
		l.see(m.DeletionTimestamp.Time)
	}
}

func (l *latest) pods(pods []*core.Pod) {
	for _, p := range pods {
		l.meta(&p.ObjectMeta)
		for _, c := range p.Status.Conditions {
			l.see(c.LastTransitionTime.Time)
		}
	}
}
