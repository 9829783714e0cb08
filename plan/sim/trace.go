package sim

import (
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// Trace is the record of a simulation.
type Trace struct {
	// Steps holds one entry per sync (unless Config.Record is
	// RecordSummary).
	Steps   []Step  `json:"steps,omitempty"`
	Summary Summary `json:"summary"`
}

// Step is one sync: the user actions before it, what the planner decided
// and why, and the cluster right after the writes and the ReplicaSet
// controllers' reaction.
type Step struct {
	Sync int       `json:"sync"`
	Time time.Time `json:"time"`
	// User lists the script actions applied before this sync.
	User []string `json:"user,omitempty"`
	// Writes are the plan's writes with whether each was applied.
	Writes []Write        `json:"writes,omitempty"`
	Events []plan.Event   `json:"events,omitempty"`
	Notes  []plan.Reason  `json:"notes,omitempty"`
	Err    string         `json:"error,omitempty"`
	Sets   []ReplicaSetAt `json:"replicaSets"`
	// Replicas is the Deployment's spec.replicas after the sync.
	Replicas int32     `json:"replicas"`
	Pods     PodCounts `json:"pods"`
	// Progressing and Available summarise the Deployment's conditions as
	// "Status/Reason".
	Progressing string               `json:"progressing,omitempty"`
	Available   string               `json:"available,omitempty"`
	Violations  []plantest.Violation `json:"violations,omitempty"`
}

// Write is one write of a plan, as the trace keeps it.
type Write struct {
	// Kind is the request the cluster received: a scale
	// (plan.ScaleReplicaSet) is an UpdateReplicaSet request, as upstream
	// sends it.
	Kind render.Kind `json:"kind"`
	Name string      `json:"name"`
	// Replicas is the spec.replicas a ReplicaSet create or update sends.
	Replicas *int32      `json:"replicas,omitempty"`
	Applied  bool        `json:"applied"`
	Conflict bool        `json:"conflict,omitempty"`
	Reason   plan.Reason `json:"reason"`
}

// ReplicaSetAt is one ReplicaSet after a sync. Spec is its spec.replicas;
// the other counts are its pods as they exist in the modelled cluster at
// that moment, counted pod by pod (or cohort by cohort at Counts fidelity),
// not read from the ReplicaSet's status, which lags a sync behind.
type ReplicaSetAt struct {
	Name     string `json:"name"`
	Revision string `json:"revision,omitempty"`
	New      bool   `json:"new,omitempty"`
	Spec     int32  `json:"spec"`
	// Active counts its pods that are not terminating; Ready and Available
	// are among those; Terminating counts its pods being deleted.
	Active      int32 `json:"active"`
	Ready       int32 `json:"ready"`
	Available   int32 `json:"available"`
	Terminating int32 `json:"terminating"`
}

// PodCounts are the pods of the Deployment at one point, counted from the
// modelled pods: each pod is counted once, in Active or in Terminating.
type PodCounts struct {
	// Pods counts every pod that exists: Active + Terminating.
	Pods        int32 `json:"pods"`
	Active      int32 `json:"active"` // not terminating
	Ready       int32 `json:"ready"`
	Available   int32 `json:"available"`
	Unavailable int32 `json:"unavailable"` // replicas − available, at least 0
	// Terminating counts pods being deleted, including those of
	// ReplicaSets already deleted.
	Terminating int32 `json:"terminating"`
}

// Summary sums a simulation up.
type Summary struct {
	Syncs   int           `json:"syncs"`
	Elapsed time.Duration `json:"elapsed"` // simulated time from the first sync to the last
	// Completed reports that after the last user action every replica was
	// updated and available and no old pod was left.
	Completed bool `json:"completed"`
	// From is the simulated time (since the first sync) of the last user
	// action, zero without one: CompletedSyncs, CompletedAfter, PeakPods,
	// PeakActive and MinAvailable describe the run from there on, so a
	// script that lets one rollout finish before starting the next reports
	// the last rollout on its own.
	From time.Duration `json:"from"`
	// CompletedSyncs and CompletedAfter say when: syncs and simulated time
	// since the last user action.
	CompletedSyncs int           `json:"completedSyncs,omitempty"`
	CompletedAfter time.Duration `json:"completedAfter,omitempty"`
	// PeakPods is the most pods that existed at once (PodCounts.Pods,
	// terminating ones included); PeakActive the most active ones.
	PeakPods   int32 `json:"peakPods"`
	PeakActive int32 `json:"peakActive"`
	// MinAvailable is the fewest available pods seen.
	MinAvailable int32 `json:"minAvailable"`
	// Stalled reports a fixed point short of completion; StallReason says
	// why, from the planner's notes and the Deployment's conditions.
	Stalled     bool   `json:"stalled"`
	StallReason string `json:"stallReason,omitempty"`
	// Writes counts the writes applied; Conflicts those a real API server
	// rejects (applied or not, depending on Config.Apply).
	Writes    int `json:"writes"`
	Conflicts int `json:"conflicts"`
	// Violations counts invariant violations upstream would not make;
	// Quirks those it inherits from a documented upstream quirk (see
	// plantest.Violation.Quirk). Both need Config.Check.
	Violations int `json:"violations"`
	Quirks     int `json:"quirks"`
	// Unfired counts script events that never fired: the simulation reached
	// a fixed point before their trigger held.
	Unfired int `json:"unfired,omitempty"`
}

func conditionSummary(d *model.Deployment, t model.DeploymentConditionType) string {
	c := d.Status.Condition(t)
	if c == nil {
		return ""
	}
	return string(c.Status) + "/" + c.Reason
}
