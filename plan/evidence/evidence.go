// Package evidence reads what a workload's pods show about its rollout:
// how long its pods took to become ready ([Observe]: creation to the Ready
// condition's last transition), which of its pods are stuck ([Assess]: not
// ready for longer than anything seen, or waiting on an error the kubelet
// keeps retrying), why a pod is not ready ([Diagnose]: the container
// waiting reasons, PodScheduled=False with the scheduler's message, failing
// readiness), and when a Deployment's progress deadline fires
// ([ProgressDeadline]).
//
// A prediction is only as good as what it assumes about pods; this package
// turns the pods a cluster shows into that assumption, and says how it got
// there, so that a prediction can print it. Everything is a pure function
// of the objects and the time given.
package evidence

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// Defaults of [Options].
const (
	// DefaultStallAfter is how long a pod may stay not ready before it is
	// taken as stalled when no pod has been seen becoming ready: half the
	// Deployment controller's default progress deadline (600s), so that a
	// stall is named before the controller gives up.
	DefaultStallAfter = 5 * time.Minute
	// DefaultMargin is the least time a pod is allowed past the longest
	// readiness delay seen before it is taken as stalled.
	DefaultMargin = time.Minute
)

// Sample is one pod seen becoming ready.
type Sample struct {
	Pod string `json:"pod"`
	// Delay runs from the pod's creation to the last transition of its
	// Ready condition to True.
	Delay time.Duration `json:"delay"`
}

// Readiness is what a set of pods shows of how long pods take to become
// ready: one [Sample] per pod seen becoming ready, by delay (ties by
// name).
type Readiness struct {
	Samples []Sample `json:"samples"`
}

// Observe collects the pods that show how long a pod takes to become
// ready: those Ready=True with a transition time not before their
// creation. A pod that restarted a container is left out (its Ready
// transition follows the restart, not its start), as is one whose Ready
// condition has no time.
func Observe(pods []*model.Pod) Readiness {
	var r Readiness
	for _, p := range pods {
		if p == nil || !model.IsPodReady(p) || restarted(p) {
			continue
		}
		c := p.ReadyCondition()
		if c.LastTransitionTime.IsZero() || p.CreationTimestamp.IsZero() || c.LastTransitionTime.Before(p.CreationTimestamp) {
			continue
		}
		r.Samples = append(r.Samples, Sample{Pod: p.Name, Delay: c.LastTransitionTime.Sub(p.CreationTimestamp)})
	}
	slices.SortFunc(r.Samples, func(a, b Sample) int {
		if a.Delay != b.Delay {
			return cmp.Compare(a.Delay, b.Delay)
		}
		return strings.Compare(a.Pod, b.Pod)
	})
	return r
}

func restarted(p *model.Pod) bool {
	for _, c := range p.Status.ContainerStatuses {
		if c.RestartCount > 0 {
			return true
		}
	}
	for _, c := range p.Status.InitContainerStatuses {
		if c.RestartCount > 0 {
			return true
		}
	}
	return false
}

// Median is the median delay (the mean of the two middle ones for an even
// count, rounded down to the nanosecond), 0 without samples.
func (r Readiness) Median() time.Duration {
	n := len(r.Samples)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return r.Samples[n/2].Delay
	}
	a, b := r.Samples[n/2-1].Delay, r.Samples[n/2].Delay
	return a + (b-a)/2
}

// Longest is the longest delay seen, 0 without samples.
func (r Readiness) Longest() time.Duration {
	if len(r.Samples) == 0 {
		return 0
	}
	return r.Samples[len(r.Samples)-1].Delay
}

// Options tune [Assess]; the zero value takes the defaults.
type Options struct {
	// StallAfter is how long a pod may stay not ready before it is taken
	// as stalled when no pod has been seen becoming ready; zero means
	// [DefaultStallAfter].
	StallAfter time.Duration
	// Margin is the least time a pod is allowed past the longest delay
	// seen; zero means [DefaultMargin].
	Margin time.Duration
}

// Assessment is what the pods of a workload show at one time: how long
// pods take to become ready, how long one may take before it is stalled,
// and the pods that are not ready.
type Assessment struct {
	Now       time.Time `json:"now"`
	Readiness Readiness `json:"readiness"`
	// ReadyAfter is the readiness delay to assume: the median seen, or 0
	// when no pod has been seen becoming ready.
	ReadyAfter time.Duration `json:"readyAfter"`
	// StallAfter is how long a pod may stay not ready before it is
	// stalled: the longest delay seen plus a margin (that delay again, at
	// least Options.Margin), or Options.StallAfter without samples.
	StallAfter time.Duration `json:"stallAfter"`
	// Margin is the margin StallAfter adds to the longest delay seen (0
	// without samples).
	Margin time.Duration `json:"margin,omitempty"`
	// Waits are the pods that are not ready (but for terminating and
	// finished ones), longest waiting first (ties by name).
	Waits []Wait `json:"waits,omitempty"`
}

// Wait is a pod that is not ready.
type Wait struct {
	Pod string `json:"pod"`
	// Since is when the pod last turned unready: the last transition of
	// its Ready condition when it has one after the pod's creation (for a
	// new pod, its first status, moments after it was scheduled), else
	// its creation.
	Since time.Time `json:"since"`
	// For is how long it has not been ready at the assessment's time.
	For time.Duration `json:"for"`
	// Causes are what keeps it from being ready ([Diagnose]).
	Causes []Cause `json:"causes,omitempty"`
	// Stalled is why the pod is taken as stalled, "" when it is not: a
	// cause the kubelet retries without end ([Cause.Blocking]), or, with
	// Overdue set, a wait longer than the assessment's StallAfter ("past
	// the longest seen (31s) with a margin of 1m0s").
	Stalled string `json:"stalled,omitempty"`
	Overdue bool   `json:"overdue,omitempty"`
}

// Assess reads pods at now: the readiness delays seen ([Observe]), the
// delay to assume and when a pod is stalled, and the pods that are not
// ready with why. A pod is stalled when it has not been ready for longer
// than StallAfter, or when one of its causes is [Cause.Blocking].
//
// Pods being deleted and pods that finished are neither evidence of a wait
// nor stalled: they are going away.
func Assess(pods []*model.Pod, now time.Time, opts Options) Assessment {
	a := Assessment{Now: now, Readiness: Observe(pods)}
	if opts.StallAfter <= 0 {
		opts.StallAfter = DefaultStallAfter
	}
	if opts.Margin <= 0 {
		opts.Margin = DefaultMargin
	}
	if len(a.Readiness.Samples) == 0 {
		a.StallAfter = opts.StallAfter
	} else {
		longest := a.Readiness.Longest()
		a.ReadyAfter = a.Readiness.Median()
		a.Margin = max(longest, opts.Margin)
		a.StallAfter = longest + a.Margin
	}
	for _, p := range pods {
		if p == nil || model.IsPodReady(p) || p.IsTerminal() || p.DeletionTimestamp != nil {
			continue
		}
		w := Wait{Pod: p.Name, Since: p.CreationTimestamp, Causes: Diagnose(p)}
		if c := p.ReadyCondition(); c != nil && c.LastTransitionTime.After(w.Since) {
			// A pod that was ready waits since it last turned unready; a
			// new one's Ready=False dates from its first status, moments
			// after it was scheduled.
			w.Since = c.LastTransitionTime
		}
		w.For = max(now.Sub(w.Since), 0)
		for _, c := range w.Causes {
			if c.Blocking() {
				w.Stalled = c.String()
				break
			}
		}
		if w.Stalled == "" && w.For > a.StallAfter {
			w.Stalled, w.Overdue = "past "+a.stallRule(), true
		}
		a.Waits = append(a.Waits, w)
	}
	slices.SortStableFunc(a.Waits, func(x, y Wait) int {
		if x.For != y.For {
			return cmp.Compare(y.For, x.For)
		}
		return strings.Compare(x.Pod, y.Pod)
	})
	return a
}

// stallRule says how StallAfter was chosen.
func (a Assessment) stallRule() string {
	if len(a.Readiness.Samples) == 0 {
		return fmt.Sprintf("%s (no pod has been seen becoming ready)", a.StallAfter)
	}
	return fmt.Sprintf("the longest seen (%s) with a margin of %s", a.Readiness.Longest(), a.Margin)
}

// Stalled returns the stalled pods among the waits.
func (a Assessment) Stalled() []Wait {
	var out []Wait
	for _, w := range a.Waits {
		if w.Stalled != "" {
			out = append(out, w)
		}
	}
	return out
}

// Assumption is the sentence that says what a prediction from a assumes:
// "assuming pods become ready 12s after creation, the median of 9 pods
// seen", or, without samples, "assuming pods become ready at once (no pod
// has been seen becoming ready)".
func (a Assessment) Assumption() string {
	switch n := len(a.Readiness.Samples); n {
	case 0:
		return "assuming pods become ready at once (no pod has been seen becoming ready)"
	case 1:
		return fmt.Sprintf("assuming pods become ready %s after creation, as the one pod seen (%s)", a.ReadyAfter, a.Readiness.Samples[0].Pod)
	default:
		return fmt.Sprintf("assuming pods become ready %s after creation, the median of %d pods seen", a.ReadyAfter, n)
	}
}

// StallLine is the sentence that names a stalled wait: "web-7d9f-abcde has
// not been ready for 20m0s, past the longest seen (31s) with a margin of
// 1m0s", or "web-7d9f-abcde will not become ready while container "app" is
// waiting: ImagePullBackOff: …".
func (w Wait) StallLine() string {
	if w.Overdue {
		return fmt.Sprintf("%s has not been ready for %s, %s", w.Pod, w.For, w.Stalled)
	}
	return w.Pod + " will not become ready while " + w.Stalled
}
