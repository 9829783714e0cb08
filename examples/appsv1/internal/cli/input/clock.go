package input

import (
	"time"

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
