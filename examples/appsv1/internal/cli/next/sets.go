package next

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/predict"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan"
)

// nextStatefulSet plans the StatefulSet controller's next sync of ref and
// prints it (the recorded Output shape), with --explain the reasons on
// standard error.
func nextStatefulSet(env *rolloutio.Env, src *rolloutio.Source, ref rolloutio.Ref, format string, explainOn bool, maxWork int64) error {
	st, err := src.GetStatefulSet(ref, rolloutio.NeedRevisions|rolloutio.NeedPods)
	if err != nil {
		return err
	}
	st.Time.Print(env.ErrOut)
	if err := predict.CheckSyncWork(predict.StatefulSetSyncWork(st.Apps), maxWork); err != nil {
		return err
	}
	o, p, err := appsv1.SyncStatefulSet(st.Apps)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return fmt.Errorf("planning: %w", err)
	}
	if err := printPlan(env.Out, format, o.Actions, o.Error, o.Events, o.Requeue); err != nil {
		return err
	}
	if !explainOn {
		return nil
	}
	w := env.ErrOut
	was := st.Apps.StatefulSet.Status
	for i, a := range o.Actions {
		rejected := ""
		switch {
		case a.Error != "":
			rejected = " [a real API server rejects this write: " + a.Error + "]"
		case a.Invalid != "":
			rejected = " [a real API server rejects this write as invalid: " + a.Invalid + "]"
		}
		fmt.Fprintf(w, "write %d: %s %s %s/%s%s: %s\n", i+1, a.Verb, resource(a.Resource, a.Subresource), a.Namespace, a.Name, rejected, a.Reason)
		if set, ok := a.Object.(*apps.StatefulSet); ok && set != nil && a.Subresource == "status" {
			writeChanges(w, was, set.Status)
			if rejected == "" {
				was = set.Status
			}
		}
	}
	notes(w, p.Notes, o.Error, o.Requeue)
	return nil
}

// nextDaemonSet is nextStatefulSet for a DaemonSet; --explain adds why the
// nodes that should not run a daemon pod should not.
func nextDaemonSet(env *rolloutio.Env, src *rolloutio.Source, ref rolloutio.Ref, format string, explainOn bool, maxWork int64) error {
	st, err := src.GetDaemonSet(ref, rolloutio.NeedRevisions|rolloutio.NeedPods)
	if err != nil {
		return err
	}
	st.Time.Print(env.ErrOut)
	if err := predict.CheckSyncWork(predict.DaemonSetSyncWork(st.Apps), maxWork); err != nil {
		return err
	}
	o, p, err := appsv1.SyncDaemonSet(st.Apps)
	var syncErr *plan.SyncError
	if err != nil && !errors.As(err, &syncErr) {
		return fmt.Errorf("planning: %w", err)
	}
	if err := printPlan(env.Out, format, o.Actions, o.Error, o.Events, o.Requeue); err != nil {
		return err
	}
	if !explainOn {
		return nil
	}
	w := env.ErrOut
	was := st.Apps.DaemonSet.Status
	for i, a := range o.Actions {
		obj := a.Name
		if a.Namespace != "" {
			obj = a.Namespace + "/" + obj
		}
		fmt.Fprintf(w, "write %d: %s %s %s: %s\n", i+1, a.Verb, resource(a.Resource, a.Subresource), obj, a.Reason)
		if ds, ok := a.Object.(*apps.DaemonSet); ok && ds != nil && a.Subresource == "status" {
			writeChanges(w, was, ds.Status)
			was = ds.Status
		}
	}
	for _, n := range p.Nodes {
		if !n.ShouldRun {
			fmt.Fprintf(w, "node %s: %s\n", n.Node, n.Reason)
		}
	}
	notes(w, p.Notes, o.Error, o.Requeue)
	return nil
}

func resource(r, sub string) string {
	if sub != "" {
		return r + "/" + sub
	}
	return r
}

// notes writes the planner's notes, the error the sync ends with and its
// requeue.
func notes(w io.Writer, notes []plan.Reason, syncErr string, requeue []appsv1.Requeue) {
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if syncErr != "" {
		fmt.Fprintf(w, "the sync ends with: %s\n", syncErr)
	}
	for _, r := range requeue {
		if r.Kind == string(plan.RequeueAfter) {
			fmt.Fprintf(w, "requeue after %gs\n", r.Seconds)
		} else {
			fmt.Fprintf(w, "requeue: %s\n", r.Kind)
		}
	}
}

// writeChanges writes each field of a status that differs between was and
// now, as "  status.field: old → new" (fields read from their JSON, so a
// field left out is "(none)").
func writeChanges(w io.Writer, was, now any) {
	a, b := flatten(was), flatten(now)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	changed := false
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if a[k] != b[k] {
			fmt.Fprintf(w, "  status.%s: %s → %s\n", k, orZero(a[k], b[k]), orZero(b[k], a[k]))
			changed = true
		}
	}
	if !changed {
		fmt.Fprintf(w, "  (no field changes)\n")
	}
}

// flatten reads v's JSON into dotted paths and their JSON values.
func flatten(v any) map[string]string {
	out := map[string]string{}
	b, err := json.Marshal(v)
	if err != nil {
		return out
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return out
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", prefix, i), e)
			}
		default:
			b, _ := json.Marshal(x)
			out[prefix] = string(b)
		}
	}
	walk("", doc)
	return out
}

// orZero is the JSON value s of a field, or when the field is left out
// (omitted when empty) the zero value of the other side's type: 0, "" or
// false; "(none)" when the other side is that zero value (a field that is
// a pointer, unset) or a list or object.
func orZero(s, other string) string {
	if s != "" {
		return s
	}
	zero := "(none)"
	switch {
	case other == "true" || other == "false":
		zero = "false"
	case strings.HasPrefix(other, `"`):
		zero = `""`
	case other != "" && strings.ContainsAny(other[:1], "-0123456789"):
		zero = "0"
	}
	if zero == other {
		return "(none)"
	}
	return zero
}
