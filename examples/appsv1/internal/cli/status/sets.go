package status

import (
	"errors"
	"fmt"

	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
)

// runSet looks at one StatefulSet or DaemonSet, and watches it until it is
// done.
func (o *options) runSet(src *rolloutio.Source, ref rolloutio.Ref, first bool) error {
	need := rolloutio.Need(0)
	if o.explain || o.predict {
		need = rolloutio.NeedRevisions | rolloutio.NeedPods
	}
	if o.predict {
		for _, name := range predict.StatefulSetFlags {
			if o.cmd.Flags().Changed(name) {
				return rolloutio.Usagef("--%s applies to Deployments: a %s is simulated pod by pod", name, ref.Kind)
			}
		}
	}
	var (
		v    view
		seen string
		next func(runtime.Object) (view, error)
	)
	if ref.Kind == rolloutio.StatefulSet {
		st, err := src.GetStatefulSet(ref, need)
		if err != nil {
			return err
		}
		v, seen = o.statefulSetView(st), st.Apps.StatefulSet.ResourceVersion
		next = func(obj runtime.Object) (view, error) {
			set, ok := obj.(*apps.StatefulSet)
			if !ok {
				return view{}, fmt.Errorf("internal error: a %T in a StatefulSet watch", obj)
			}
			st, err := src.RefreshStatefulSet(set.DeepCopy(), need)
			if err != nil {
				return view{}, err
			}
			return o.statefulSetView(st), nil
		}
	} else {
		st, err := src.GetDaemonSet(ref, need)
		if err != nil {
			return err
		}
		v, seen = o.daemonSetView(st), st.Apps.DaemonSet.ResourceVersion
		next = func(obj runtime.Object) (view, error) {
			ds, ok := obj.(*apps.DaemonSet)
			if !ok {
				return view{}, fmt.Errorf("internal error: a %T in a DaemonSet watch", obj)
			}
			st, err := src.RefreshDaemonSet(ds.DeepCopy(), need)
			if err != nil {
				return view{}, err
			}
			return o.daemonSetView(st), nil
		}
	}
	if first && need != 0 {
		rolloutio.Time{At: v.now, Why: v.why}.Print(o.env.ErrOut)
	}
	done, err := o.lookAt(v)
	if err != nil || done || !src.Live() || !o.watch {
		return err
	}
	return o.watchRollout(src, ref, seen, func(obj runtime.Object) (bool, error) {
		v, err := next(obj)
		if err != nil {
			return false, err
		}
		return o.lookAt(v)
	})
}

// statefulSetView is a look at a StatefulSet: kubectl's StatefulSet status
// viewer (which has no --revision), the StatefulSet controller's next sync
// and a StatefulSet simulation.
func (o *options) statefulSetView(st *rolloutio.StatefulSetState) view {
	s := st.Apps
	msg, done, err := rollout.StatefulSetStatus(model.DefaultStatefulSet(st.StatefulSet))
	return view{
		ref: st.Ref, msg: msg, done: done, err: err, now: s.Now, why: st.Time.Why, status: s.StatefulSet.Status,
		explain: func() (Explanation, error) {
			if err := predict.CheckSyncWork(predict.StatefulSetSyncWork(s), o.world.MaxWork); err != nil {
				return Explanation{}, fmt.Errorf("explain: %w", err)
			}
			return ExplainStatefulSet(s)
		},
		predict: func() (*predict.Prediction, error) { return predict.RunStatefulSet(s, o.world) },
	}
}

// daemonSetView is a look at a DaemonSet: kubectl's DaemonSet status
// viewer (which ignores --revision), the DaemonSet controller's next sync
// and a DaemonSet simulation over the nodes.
func (o *options) daemonSetView(st *rolloutio.DaemonSetState) view {
	s := st.Apps
	msg, done, err := rollout.DaemonSetStatus(model.DefaultDaemonSet(st.DaemonSet))
	return view{
		ref: st.Ref, msg: msg, done: done, err: err, now: s.Now, why: st.Time.Why, status: s.DaemonSet.Status,
		explain: func() (Explanation, error) {
			if err := predict.CheckSyncWork(predict.DaemonSetSyncWork(s), o.world.MaxWork); err != nil {
				return Explanation{}, fmt.Errorf("explain: %w", err)
			}
			return ExplainDaemonSet(s)
		},
		predict: func() (*predict.Prediction, error) { return predict.RunDaemonSet(s, o.world) },
	}
}

// ExplainStatefulSet plans the StatefulSet controller's next sync of s.
func ExplainStatefulSet(s appsv1.StatefulSetState) (Explanation, error) {
	_, p, err := appsv1.SyncStatefulSet(s)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return Explanation{}, fmt.Errorf("explain: planning the next sync: %w", err)
	}
	e := Explanation{Time: s.Now.UTC(), controller: rolloutio.StatefulSet}
	for _, a := range p.Actions {
		w := Write{Kind: string(a.Kind), Object: a.Object.Namespace + "/" + a.Object.Name, Reason: reasonLine(a.Reason), Rejected: a.Error}
		if w.Rejected == "" {
			w.Rejected = a.Invalid
		}
		e.Writes = append(e.Writes, w)
	}
	for _, n := range p.Notes {
		e.Notes = append(e.Notes, reasonLine(n))
	}
	e.finish(syncErr, p.Requeue)
	pods, err := podsToModel(s.Pods)
	if err != nil {
		return Explanation{}, err
	}
	if set := s.StatefulSet; set != nil {
		e.Pods, e.MorePods = podWaits(predict.SetPods(string(set.UID), pods), s.Now, revisionOf(set.Status.CurrentRevision, set.Status.UpdateRevision))
	}
	return e, nil
}

// ExplainDaemonSet plans the DaemonSet controller's next sync of s; the
// nodes that should not run a daemon pod are notes, with the reason.
func ExplainDaemonSet(s appsv1.DaemonSetState) (Explanation, error) {
	_, p, err := appsv1.SyncDaemonSet(s)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return Explanation{}, fmt.Errorf("explain: planning the next sync: %w", err)
	}
	e := Explanation{Time: s.Now.UTC(), controller: rolloutio.DaemonSet}
	for _, a := range p.Actions {
		obj := a.Object.Name
		if a.Object.Namespace != "" {
			obj = a.Object.Namespace + "/" + obj
		}
		e.Writes = append(e.Writes, Write{Kind: string(a.Kind), Object: obj, Reason: reasonLine(a.Reason)})
	}
	for _, n := range p.Notes {
		e.Notes = append(e.Notes, reasonLine(n))
	}
	for _, pl := range p.Nodes {
		if !pl.ShouldRun {
			e.Notes = append(e.Notes, reasonLine(pl.Reason))
		}
	}
	e.finish(syncErr, p.Requeue)
	pods, err := podsToModel(s.Pods)
	if err != nil {
		return Explanation{}, err
	}
	if ds := s.DaemonSet; ds != nil {
		e.Pods, e.MorePods = podWaits(predict.SetPods(string(ds.UID), pods), s.Now, nodeOf)
	}
	return e, nil
}

// finish records the error the sync ends with and its requeue.
func (e *Explanation) finish(syncErr *plan.SyncError, r plan.Requeue) {
	if syncErr != nil {
		e.SyncError = syncErr.Message
	}
	if r.Kind == plan.RequeueAfter {
		e.RequeueAfter = r.After.String()
	}
}
