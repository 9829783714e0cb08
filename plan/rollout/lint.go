package rollout

import (
	"errors"
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/sim"
	"github.com/rolloutplan/rolloutplan/proportion"
)

// LintOptions describe the cluster a [Lint] simulation assumes.
type LintOptions struct {
	// ReadyAfter is how long a new pod takes to become ready (its readiness
	// delay); minReadySeconds comes on top, as in the cluster. Zero means
	// every pod is ready at once.
	ReadyAfter time.Duration
	// TerminationGrace is how long a deleted pod keeps terminating.
	TerminationGrace time.Duration
	// MinAvailable is a PodDisruptionBudget-like floor: the number of pods
	// that must stay available during the rollout (0: none).
	MinAvailable int32
	// MaxWork bounds the work of the simulated rollout, and with it the
	// memory Lint takes, as sim.Config.MaxWork does (the objects modelled
	// and those the trace keeps, summed over the syncs; about 400 bytes a
	// unit at most): past it Lint fails with an error wrapping
	// sim.ErrWorkBound. A Deployment rolled out a pod at a time (maxSurge
	// 0, maxUnavailable 1) takes a sync per replica: at 2147483647
	// replicas, an unbounded simulation grows until memory runs out. Zero
	// means no bound; a negative bound is an error.
	MaxWork int64
}

// Severity grades a [Finding].
type Severity string

// Severities, from the mildest.
const (
	Info    Severity = "info"
	Warning Severity = "warning"
)

// FindingCode names a [Finding] for programs.
type FindingCode string

// The findings [Lint] reports.
const (
	// FindingUnavailableRoundsToZero: maxSurge resolves to 0 and
	// maxUnavailable rounds down to 0, so the controller uses 1.
	FindingUnavailableRoundsToZero FindingCode = "MaxUnavailableRoundsToZero"
	// FindingFullUnavailability: maxUnavailable allows every pod to be
	// unavailable at once (100 %), or the strategy is Recreate: downtime.
	FindingFullUnavailability FindingCode = "Downtime"
	// FindingDeadlineTooShort: progressDeadlineSeconds is shorter than the
	// simulated rollout, so the Deployment is reported as failed while it
	// is still progressing.
	FindingDeadlineTooShort FindingCode = "ProgressDeadlineShorterThanRollout"
	// FindingSingleReplica: one replica with percentage fenceposts: the
	// percentages resolve to a surge of 1 and no unavailability, and one pod
	// carries all traffic.
	FindingSingleReplica FindingCode = "SingleReplica"
	// FindingBelowMinAvailable: the rollout goes below
	// [LintOptions.MinAvailable] available pods.
	FindingBelowMinAvailable FindingCode = "BelowMinAvailable"
	// FindingPaused: the Deployment is paused; nothing rolls out until it is
	// resumed.
	FindingPaused FindingCode = "Paused"
	// FindingStalled: the simulated rollout never completes.
	FindingStalled FindingCode = "Stalled"
)

// Finding is one observation of [Lint].
type Finding struct {
	Code     FindingCode
	Severity Severity
	Message  string
}

// Report is what [Lint] finds out about a Deployment's strategy.
type Report struct {
	Strategy model.StrategyType
	Replicas int32
	// MaxSurge and MaxUnavailable are the resolved fenceposts (percentages
	// of Replicas, surge rounded up, unavailability down, 0/0 made 0/1);
	// both 0 for Recreate.
	MaxSurge, MaxUnavailable int32
	// PeakPods is the most pods running at once in the simulated rollout,
	// terminating ones included; MinAvailable the fewest available ones.
	PeakPods, MinAvailable int32
	// Steps counts the controller's scaling steps (its ScalingReplicaSet
	// events) from the template change to the end of the rollout.
	Steps int
	// Duration is the simulated time from the template change until every
	// replica is updated and available and no old pod is left; Completed
	// is false when the simulation stalled or ran out of syncs.
	Duration  time.Duration
	Completed bool
	Findings  []Finding
}

// Lint reviews d's strategy before it is applied: it resolves the
// fenceposts, simulates a template change on a settled Deployment (every
// pod of the current template available) with package plan/sim, and reports
// the peak pods, the minimum available, the number of scaling steps and the
// duration, plus findings users commonly hit. d is not modified; an
// invalid d (model.Validate's rules, after model.Default) is an error naming
// the field. opts.MaxWork bounds the simulation, and with it the memory
// Lint takes.
//
// For the seeds' nginx example (3 replicas, 25 %/25 %, pods ready at once)
// the rollout surges to 4 pods, never drops below 3 available and takes 6
// scaling steps: new→1, old→2, new→2, old→1, new→3, old→0.
func Lint(d *model.Deployment, opts LintOptions) (Report, error) {
	if d == nil {
		return Report{}, &model.FieldError{Field: "deployment", Detail: "must not be nil"}
	}
	if opts.ReadyAfter < 0 || opts.TerminationGrace < 0 || opts.MinAvailable < 0 || opts.MaxWork < 0 {
		return Report{}, errors.New("lint options: ReadyAfter, TerminationGrace, MinAvailable and MaxWork must not be negative")
	}
	dd := model.Default(d)
	if dd.UID == "" {
		// A manifest not yet applied has no UID; the simulation needs one.
		dd.UID = "lint"
	}
	if err := model.Validate(dd, nil, nil); err != nil {
		return Report{}, err
	}
	r := Report{Strategy: dd.Spec.Strategy.Type, Replicas: dd.DesiredReplicas()}
	r.MaxSurge, r.MaxUnavailable = proportion.MaxSurge(dd), proportion.MaxUnavailable(dd)
	if err := checkRolloutWork(r, opts.MaxWork); err != nil {
		return Report{}, err
	}

	tr, err := sim.Run(lintConfig(dd, opts))
	if err != nil {
		return Report{}, fmt.Errorf("lint: simulating the rollout: %w", err)
	}
	s := tr.Summary
	r.PeakPods, r.MinAvailable = s.PeakPods, s.MinAvailable
	r.Completed, r.Duration = s.Completed, s.CompletedAfter
	changed := false
	for _, st := range tr.Steps {
		changed = changed || len(st.User) > 0
		if !changed {
			continue
		}
		for _, e := range st.Events {
			if e.Reason == model.EventScalingReplicaSet {
				r.Steps++
			}
		}
	}
	r.Findings = findings(dd, r, s, opts)
	return r, nil
}

// lintConfig is the simulation Lint runs of d (defaulted and valid): a
// template change on d settled.
func lintConfig(d *model.Deployment, opts LintOptions) sim.Config {
	start, settled := settledState(d)
	next := start.Spec.Template.Spec + " "
	return sim.Config{
		Deployment:  start,
		ReplicaSets: []*model.ReplicaSet{settled},
		Script: []sim.Event{{At: 0, Action: sim.Action{Kind: sim.SetTemplateSpec, Spec: next,
			Description: "template change"}}},
		World:   sim.World{ReadyAfter: opts.ReadyAfter, TerminationGrace: opts.TerminationGrace},
		MaxWork: opts.MaxWork,
	}
}

// checkRolloutWork refuses at once, with an error wrapping
// sim.ErrWorkBound, a rolling update the simulation could not finish
// within maxWork (zero: no bound), rather than running it until the bound
// stops it: 2147483647 replicas rolled a pod at a time reach the default
// bound of the commands after a million syncs, 20 s and 2.7 GB. A sync
// grows the new ReplicaSet by maxSurge + maxUnavailable replicas at most
// (upstream's reconcileNewReplicaSet keeps the pods under replicas +
// maxSurge, and reconcileOldReplicaSets the available ones above
// replicas − maxUnavailable), and the simulation charges every sync the
// Deployment and the settled ReplicaSet at least: so the rollout costs
// at least two units per maxSurge + maxUnavailable replicas.
func checkRolloutWork(r Report, maxWork int64) error {
	if maxWork <= 0 || r.Strategy != model.RollingUpdateStrategy {
		return nil
	}
	step := max(1, int64(r.MaxSurge)+int64(r.MaxUnavailable))
	syncs := (int64(r.Replicas) + step - 1) / step
	if least := 2 * syncs; least > maxWork {
		return fmt.Errorf("lint: simulating the rollout: %w: %d replicas, %d a sync at most, take at least %d syncs and %d units of work, bound %d",
			sim.ErrWorkBound, r.Replicas, step, syncs, least, maxWork)
	}
	return nil
}

func findings(d *model.Deployment, r Report, s sim.Summary, opts LintOptions) []Finding {
	var out []Finding
	add := func(code FindingCode, sev Severity, format string, args ...any) {
		out = append(out, Finding{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	if d.Spec.Paused {
		add(FindingPaused, Info, "the Deployment is paused: a template change rolls out only after 'kubectl rollout resume'")
	}
	switch d.Spec.Strategy.Type {
	case model.RecreateStrategy:
		add(FindingFullUnavailability, Warning, "Recreate stops all %d pods before starting new ones: the Deployment is down until the new pods are available", r.Replicas)
		if opts.MinAvailable > 0 {
			add(FindingBelowMinAvailable, Warning, "Recreate cannot keep %d pods available (a PodDisruptionBudget-like minimum): it goes down to 0", opts.MinAvailable)
		}
	case model.RollingUpdateStrategy:
		ru := d.Spec.Strategy.RollingUpdate
		if r.MaxSurge == 0 && r.Replicas > 0 {
			if raw, err := proportion.ScaledValue(ru.MaxUnavailable, r.Replicas, false); err == nil && raw == 0 {
				add(FindingUnavailableRoundsToZero, Warning, "maxUnavailable %s of %d replicas rounds down to 0 and maxSurge %s resolves to 0: the controller uses maxUnavailable 1, one pod down at a time",
					ru.MaxUnavailable, r.Replicas, ru.MaxSurge)
			}
		}
		if r.Replicas > 0 && r.MaxUnavailable >= r.Replicas {
			add(FindingFullUnavailability, Warning, "maxUnavailable %s allows all %d pods to be unavailable at once: the rollout may take the Deployment down", ru.MaxUnavailable, r.Replicas)
		}
		if r.Replicas == 1 && (ru.MaxSurge.Type == model.String || ru.MaxUnavailable.Type == model.String) {
			add(FindingSingleReplica, Info, "1 replica with maxSurge %s and maxUnavailable %s: the percentages resolve to surge %d and unavailable %d, and a single pod carries all traffic",
				ru.MaxSurge, ru.MaxUnavailable, r.MaxSurge, r.MaxUnavailable)
		}
		if opts.MinAvailable > 0 && s.MinAvailable < opts.MinAvailable {
			add(FindingBelowMinAvailable, Warning, "the rollout goes down to %d available pods, below the minimum of %d (replicas %d − maxUnavailable %d = %d)",
				s.MinAvailable, opts.MinAvailable, r.Replicas, r.MaxUnavailable, r.Replicas-r.MaxUnavailable)
		}
	}
	if p := d.Spec.ProgressDeadlineSeconds; p != nil && *p != model.NoLimit && r.Completed &&
		r.Duration > time.Duration(*p)*time.Second {
		add(FindingDeadlineTooShort, Warning, "progressDeadlineSeconds %d is shorter than the simulated rollout (%s): the controller measures it from the last progress, so the rollout fails (ProgressDeadlineExceeded) only if one step stalls that long, but anything that treats the deadline as the rollout's time limit gives up early",
			*p, r.Duration)
	}
	if !r.Completed {
		reason := s.StallReason
		if reason == "" {
			reason = "the simulation ran out of syncs"
		}
		add(FindingStalled, Warning, "the simulated rollout does not complete: %s", reason)
	}
	return out
}

// settledState returns d rolled out: unpaused, at revision 1, with one
// ReplicaSet of its template holding every replica, all available.
func settledState(d *model.Deployment) (*model.Deployment, *model.ReplicaSet) {
	start := d.DeepCopy()
	n := start.DesiredReplicas()
	start.Spec.Paused = false
	start.Generation, start.ResourceVersion = 1, ""
	start.Annotations = map[string]string{model.RevisionAnnotation: "1"}
	start.Status = model.DeploymentStatus{ObservedGeneration: 1, Replicas: n, UpdatedReplicas: n, ReadyReplicas: n, AvailableReplicas: n}
	const hash = "settled"
	tmpl := start.Spec.Template.DeepCopy()
	if tmpl.Labels == nil {
		tmpl.Labels = map[string]string{}
	}
	tmpl.Labels[model.PodTemplateHashLabel] = hash
	sel := start.Spec.Selector.DeepCopy()
	if sel.MatchLabels == nil {
		sel.MatchLabels = map[string]string{}
	}
	sel.MatchLabels[model.PodTemplateHashLabel] = hash
	rs := &model.ReplicaSet{
		ObjectMeta: model.ObjectMeta{
			Name: start.Name + "-" + hash, Namespace: start.Namespace, UID: start.UID + "-" + hash,
			CreationTimestamp: start.CreationTimestamp,
			Labels:            tmpl.Labels,
			Annotations:       map[string]string{model.RevisionAnnotation: "1"},
			OwnerReferences:   []model.OwnerReference{model.NewControllerRef(model.AppsV1APIVersion, model.DeploymentKind, start.Name, start.UID)},
		},
		Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(n), MinReadySeconds: start.Spec.MinReadySeconds, Selector: sel, Template: tmpl},
		Status: model.ReplicaSetStatus{Replicas: n, FullyLabeledReplicas: n, ReadyReplicas: n, AvailableReplicas: n,
			TerminatingReplicas: model.Int32Ptr(0), ObservedGeneration: 1},
	}
	return start, rs
}
