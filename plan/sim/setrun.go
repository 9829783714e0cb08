package sim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest"
)

// The bookkeeping the Deployment, StatefulSet and DaemonSet runners share:
// the loop of syncs of the two set runners, and the summary's and the
// clock's rules all three follow.

// setSyncer is a StatefulSet or DaemonSet runner as runSyncs drives it; P
// is its planner's Plan.
type setSyncer[P any] interface {
	// syncAt runs the sync at now: the user's actions due, the kubelet, the
	// planner and its writes, recorded in the trace. It reports whether
	// anything changed (a sync that ends with an error is retried, so it
	// counts as a change) and whether the rollout is complete after it.
	// It calls charge just before planning, and fails with its error.
	syncAt(sync int, now time.Time, charge func() error) (p P, changed, complete bool, err error)
	// modelled counts the objects of a sync about to be planned: those the
	// namespace holds (pods, revisions, claims, nodes and one for the set)
	// and those the sync may create; pods counts the pods it holds, for
	// the work bound's message.
	modelled() (objects int64, pods int)
	// kept is the work the trace's last step costs (its units): zero when
	// the trace keeps only the summary.
	kept() int64
	// nextEvent is when something happens by itself after a sync at now
	// that changed nothing; zero when nothing will.
	nextEvent(p P, now time.Time) time.Time
	// finish records why the run stopped short of completion, if it did.
	finish(last P)
}

// runSyncs syncs again and again from the start, until a fixed point or
// maxSyncs syncs. Past maxWork (zero: no bound) it fails with an error
// wrapping ErrWorkBound: each sync costs the objects modelled before it
// and what the trace keeps of it, as a Deployment's sync does (see
// Config.MaxWork).
func runSyncs[P any](r setSyncer[P], s *scheduler, sum *Summary, interval time.Duration, maxSyncs int, maxWork int64) error {
	now := s.start
	sum.MinAvailable = -1
	var last P
	var work int64
	for sync := range maxSyncs {
		// Charged after the user's actions, before planning: a scale-up
		// the sync is about to carry out is in it.
		charge := func() error {
			objects, pods := r.modelled()
			work += objects
			return checkWork(work, maxWork, sync, pods)
		}
		p, changed, complete, err := r.syncAt(sync, now, charge)
		if err != nil {
			return err
		}
		// What the trace keeps is charged too, so that the bound holds
		// for memory however cheap the syncs are.
		work += r.kept()
		if maxWork > 0 && work > maxWork {
			_, pods := r.modelled()
			return checkWork(work, maxWork, sync+1, pods)
		}
		last = p
		next, ok := s.nextSync(now, interval, changed, complete, func() time.Time { return r.nextEvent(p, now) })
		if !ok {
			r.finish(p)
			return nil
		}
		now = next
	}
	r.finish(last)
	sum.noFixedPoint(maxSyncs)
	return nil
}

// nextSync returns when the sync after one at now happens, and false at a
// fixed point. A sync that changed something is followed one interval
// later; otherwise the next is when the world (zero: never) or the script
// next does something.
func (s *scheduler) nextSync(now time.Time, interval time.Duration, changed, complete bool, world func() time.Time) (time.Time, bool) {
	next := now.Add(interval)
	s.wasComplete, s.wasStalled = complete, false
	if changed {
		return next, true
	}
	wake := world()
	s.wasStalled = !complete && wake.IsZero()
	wake = s.wake(wake, next)
	return wake, !wake.IsZero()
}

// withRequeue returns world, when something happens by itself (zero:
// never), or the planner's requeue after a sync at now, whichever comes
// first. A rate-limited requeue comes one sync interval later.
func withRequeue(world time.Time, rq plan.Requeue, now time.Time, interval time.Duration) time.Time {
	var requeue time.Time
	switch rq.Kind {
	case plan.RequeueAfter:
		requeue = now.Add(rq.After)
	case plan.RequeueRateLimited:
		requeue = now.Add(interval)
	}
	if !requeue.IsZero() && (world.IsZero() || requeue.Before(world)) {
		return requeue
	}
	return world
}

// userActions applies the script events due before the sync at now, in
// order, with apply (see fire). An action that takes effect starts the
// summary's measurements again: they describe the run from the last user
// action on.
func (s *scheduler) userActions(sync int, now time.Time, sum *Summary, apply func(Action) error) ([]string, error) {
	done, applied, err := s.fire(now, apply)
	if err != nil {
		return nil, fmt.Errorf("sim: sync %d: %w", sync, err)
	}
	if applied {
		s.userAt, s.userTime = sync, now
		sum.From = now.Sub(s.start)
		sum.PeakPods, sum.PeakActive, sum.MinAvailable = 0, 0, -1
	}
	return done, nil
}

// userTimeOrStart is the clock of the last user action, or the start.
func (s *scheduler) userTimeOrStart() time.Time {
	if s.userAt < 0 {
		return s.start
	}
	return s.userTime
}

// noteCompletion keeps in the summary whether the rollout is complete after
// the sync at now. It counts as completed only once the script has no event
// left, measured from the last user action; a rollout that stops being
// complete is no longer counted as completed.
func (s *scheduler) noteCompletion(sum *Summary, sync int, now time.Time, complete bool) {
	if complete && len(s.script) == 0 && !sum.Completed {
		sum.Completed = true
		sum.CompletedSyncs = sync - max(s.userAt, 0)
		sum.CompletedAfter = now.Sub(s.userTimeOrStart())
	}
	if !complete {
		sum.Completed = false
	}
}

// countSync notes a sync in the summary: the syncs so far, the time since
// the start, and the sync's violations, those upstream makes too (a quirk)
// apart.
func (s *Summary) countSync(sync int, elapsed time.Duration, violations []plantest.Violation) {
	s.Syncs = sync + 1
	s.Elapsed = elapsed
	for _, v := range violations {
		if v.Quirk != "" {
			s.Quirks++
		} else {
			s.Violations++
		}
	}
}

// notePods keeps the peaks of pods and active pods and the minimum
// available (MinAvailable -1: none seen yet).
func (s *Summary) notePods(pods, active, available int32) {
	s.PeakPods = max(s.PeakPods, pods)
	s.PeakActive = max(s.PeakActive, active)
	if s.MinAvailable < 0 || available < s.MinAvailable {
		s.MinAvailable = available
	}
}

// endRun closes the summary at the end of a run with unfired script events
// left, and reports whether the rollout stalled (did not complete).
func (s *Summary) endRun(unfired int) (stalled bool) {
	if s.MinAvailable < 0 {
		s.MinAvailable = 0
	}
	s.Unfired = unfired
	if s.Completed {
		return false
	}
	s.Stalled = true
	return true
}

// noFixedPoint marks a run that used up its syncs without reaching a fixed
// point: it stalled unless the rollout completed.
func (s *Summary) noFixedPoint(maxSyncs int) {
	s.Stalled = !s.Completed
	if s.Stalled {
		s.StallReason = fmt.Sprintf("no fixed point within %d syncs", maxSyncs)
	}
}

// telling appends to why the messages of the notes whose codes are not
// among quiet: the notes that may explain a stall.
func telling(why []string, notes []plan.Reason, quiet []plan.ReasonCode) []string {
	for _, n := range notes {
		if !slices.Contains(quiet, n.Code) {
			why = append(why, n.Message)
		}
	}
	return why
}

// stallReason joins the explanations of a stall, or says there is none.
func stallReason(why []string) string {
	if len(why) == 0 {
		why = append(why, "nothing is pending and the rollout is not complete")
	}
	return strings.Join(why, "; ")
}

// revisionLetters names revisions by letters A, B, … in the order they are
// first seen ("#" past Z), by revision name.
type revisionLetters map[string]string

// letter returns the letter of a revision, assigning the next one to a
// revision seen for the first time.
func (l revisionLetters) letter(name string) string {
	if s, ok := l[name]; ok {
		return s
	}
	s := "#"
	if n := len(l); n < 26 {
		s = string(rune('A' + n))
	}
	l[name] = s
	return s
}

// runningAndReady is the kubelet's "Running and Ready": what the timeline
// shows in upper case and the counts call ready.
func runningAndReady(p *model.Pod) bool {
	return p.Status.Phase == model.PodRunning && model.IsPodReady(p)
}

// add counts a set's pod: terminating, or active and, when Running and
// Ready, ready and, by the set's rule, available.
func (t *podTally) add(q *model.Pod, available func(*model.Pod) bool) {
	if q.DeletionTimestamp != nil {
		t.terminating++
		return
	}
	t.active++
	if runningAndReady(q) {
		t.ready++
		if available(q) {
			t.available++
		}
	}
}

// counts returns the tally as PodCounts, without Unavailable, which
// depends on what the set wants.
func (t podTally) counts() PodCounts {
	return PodCounts{Pods: t.active + t.terminating, Active: t.active, Ready: t.ready, Available: t.available, Terminating: t.terminating}
}

// into copies the tally to a revision's counts.
func (t podTally) into(ra *RevisionAt) {
	ra.Active, ra.Ready, ra.Available, ra.Terminating = t.active, t.ready, t.available, t.terminating
}
