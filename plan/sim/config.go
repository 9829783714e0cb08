package sim

import (
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/inmemory"
	"github.com/rolloutplan/rolloutplan/plan/replicaset"
)

// Fidelity chooses how pods are modelled.
type Fidelity int

const (
	// Counts models pods as cohorts per ReplicaSet.
	Counts Fidelity = iota
	// Pods models every pod and runs the ReplicaSet planner.
	Pods
)

// String names the fidelity.
func (f Fidelity) String() string {
	if f == Pods {
		return "pods"
	}
	return "counts"
}

// Config describes one simulation.
type Config struct {
	// Deployment is the starting Deployment; it is defaulted with
	// model.Default. It needs a name, a UID, a selector and a template.
	Deployment *model.Deployment
	// ReplicaSets and Pods are the starting cluster (optional), such as a
	// live cluster's state. Pods are used at Pods fidelity only: ready pods
	// stay ready, the others become ready World.ReadyAfter after their
	// creation (at Start at the earliest), deleted ones go
	// World.TerminationGrace after their deletion timestamp. At Counts
	// fidelity each ReplicaSet starts with its status.availableReplicas
	// pods available and the rest of its status.replicas starting at Start.
	ReplicaSets []*model.ReplicaSet
	Pods        []*model.Pod
	// Start is the clock at the first sync; the zero value means
	// 2026-01-01T00:00:00Z.
	Start time.Time
	// SyncInterval is the time between a sync that changed something and the
	// next one; zero means one second.
	SyncInterval time.Duration
	// Script holds the user's actions, each applied just before a sync.
	Script []Event
	// World models pods.
	World World
	// Fidelity chooses Counts (the default) or Pods.
	Fidelity Fidelity
	// MaxSyncs bounds the simulation; zero means 100 000 + 4·replicas.
	MaxSyncs int
	// MaxWork bounds the work of the simulation, and with it its memory:
	// the sum, over its syncs, of the objects modelled at that sync (pods,
	// ReplicaSets and one for the Deployment; at Counts fidelity no pod is
	// an object) and of the objects the trace keeps of it (with
	// RecordSteps: one for the Step and one per ReplicaSet, write, event,
	// note, user action and violation it records). Run fails with an error
	// wrapping [ErrWorkBound] past it. Zero means no bound.
	//
	// Charging the trace makes the bound hold for memory however cheap the
	// syncs are: a Counts run of a Deployment of 2147483647 replicas with
	// maxSurge 0 moves one pod a sync and keeps a Step each time. Beyond
	// the starting state and one sync's pods, a run takes about 400 bytes
	// of memory per unit of MaxWork at most (measured as the process's
	// peak resident memory on that run: 312 to 450 bytes per unit from
	// 10⁵ to 1.6·10⁷ units, the collector's headroom included; its live
	// heap is about 270); at Pods fidelity a unit costs less, as each pod
	// is charged at every sync it exists. 10 000 000 units, the commands'
	// default (examples/simulate, kubectl-rolloutplan simulate and status
	// --predict), bound a run to about 4 GB.
	MaxWork int64
	// Apply chooses which writes of each plan reach the cluster; the default,
	// inmemory.ApplyAccepted, is a real API server's behaviour.
	Apply inmemory.ApplyMode
	// Faults injects failures of the control loop.
	Faults Faults
	// PlanOptions are passed to every plan.Sync.
	PlanOptions []plan.Option
	// ReplicaSetOptions are passed to every replicaset.Sync at Pods
	// fidelity (at Counts fidelity no ReplicaSet planner runs). A feature
	// gate both controllers read, such as WithTerminatingReplicas, belongs
	// in both lists.
	ReplicaSetOptions []replicaset.Option
	// Record chooses how much the trace keeps.
	Record Record
	// Check runs plantest.Check on every sync and records violations.
	Check bool
}

// Record chooses how much a [Trace] keeps: the summary is always there.
type Record int

const (
	// RecordSteps keeps one Step per sync with sizes, counts and the plan's
	// actions and events.
	RecordSteps Record = iota
	// RecordSummary keeps only the summary: for very long simulations.
	RecordSummary
)

// World models how pods behave.
type World struct {
	// ReadyAfter is how long a new pod takes to become ready.
	ReadyAfter time.Duration
	// NeverReady marks templates whose pods never become ready (a broken
	// image); nil means every template works.
	NeverReady func(model.PodTemplate) bool
	// FailureRate is the probability, per sync, that a ready pod fails: it
	// turns unready and becomes ready again ReadyAfter later.
	FailureRate float64
	// TerminationGrace is how long a deleted pod keeps terminating.
	TerminationGrace time.Duration
	// Nodes is the number of nodes pods are spread over (Pods fidelity);
	// zero means 3.
	Nodes int
	// Seed seeds every random draw of the simulation.
	Seed uint64
}

// Faults injects failures of the control loop, each drawn per sync.
type Faults struct {
	// PrefixRate is the probability that only a random prefix of a plan's
	// writes is applied (the controller crashed mid-sync).
	PrefixRate float64
	// DropRate is the probability that each write is lost.
	DropRate float64
	// StaleStatusRate is the probability that the planner sees the
	// ReplicaSet statuses of the previous sync (a lagging informer).
	StaleStatusRate float64
}

// NeverReadyImage returns a World.NeverReady predicate that is true for
// templates whose Spec contains marker, e.g. an image name.
func NeverReadyImage(marker string) func(model.PodTemplate) bool {
	return func(t model.PodTemplate) bool { return marker != "" && strings.Contains(t.Spec, marker) }
}
