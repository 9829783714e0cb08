package replay

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// Options configure a replay. The planner's grace period comes from the
// script (default [restart.DefaultGracePeriod]); the rest of Planner is used
// as given.
type Options struct {
	Planner restart.Options
}

type echo struct {
	due  time.Duration
	seq  int
	name string
	doc  map[string]any
}

type runner struct {
	s        Script
	opts     restart.Options
	cluster  map[string]map[string]any
	fail     map[string]string
	echoes   []echo
	seq      int
	tr       *restart.Tracker
	waiting  int
	echoWait *time.Duration
	// steps counts the steps made; step receives each (see RunFunc), and
	// stepErr is the first error it returned.
	steps   int
	step    func(Step) error
	stepErr error
}

// Run replays a script and returns its trace. Errors are bad scripts:
// malformed objects or unknown kinds, named by event index.
func Run(s Script, o Options) (Trace, error) {
	var tr Trace
	final, err := RunFunc(s, o, func(st Step) error {
		tr.Steps = append(tr.Steps, st)
		return nil
	})
	if err != nil {
		return Trace{}, err
	}
	tr.Final = final
	return tr, nil
}

// RunFunc replays a script as [Run] does but hands each step of the trace
// to step as soon as it is made, in trace order, instead of keeping it: a
// replay's memory is then its cluster's and planner's, not its trace's.
// It returns the trace's Final (nil when the controller is down at the
// end). An error from step ends the replay and is returned as it is.
func RunFunc(s Script, o Options, step func(Step) error) (*Final, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	r := &runner{s: s, opts: o.Planner, cluster: map[string]map[string]any{}, fail: map[string]string{}, step: step}
	r.opts.GracePeriod = restart.DefaultGracePeriod
	if s.GracePeriodSeconds != nil {
		r.opts.GracePeriod = seconds(*s.GracePeriodSeconds)
	}
	if s.EchoDelaySeconds != nil {
		d := seconds(*s.EchoDelaySeconds)
		r.echoWait = &d
	}
	if err := r.start(); err != nil {
		return nil, err
	}
	for i, e := range s.Events {
		at := seconds(e.At)
		if err := r.deliverEchoes(at); err != nil {
			return nil, r.failed(err)
		}
		if err := r.event(i, e, at); err != nil {
			if r.stepErr != nil {
				return nil, r.stepErr
			}
			return nil, fmt.Errorf("%w: events[%d]: %w", ErrBadScript, i, err)
		}
	}
	// Echoes still in flight arrive after the last event.
	if err := r.deliverEchoes(time.Duration(math.MaxInt64)); err != nil {
		return nil, r.failed(err)
	}
	if r.tr != nil {
		return r.final(), nil
	}
	return nil, nil
}

// failed is err, or the error of step that caused it.
func (r *runner) failed(err error) error {
	if r.stepErr != nil {
		return r.stepErr
	}
	return err
}

// add hands a finished step to the caller of RunFunc.
func (r *runner) add(st Step) error {
	r.steps++
	if err := r.step(st); err != nil {
		r.stepErr = err
		return err
	}
	return nil
}

func atSeconds(d time.Duration) float64 { return d.Seconds() }

func (r *runner) now(at time.Duration) time.Time { return Epoch().Add(at) }

func (r *runner) start() error {
	tr, err := restart.NewTracker(r.opts)
	if err != nil {
		return err
	}
	r.tr, r.waiting = tr, 0
	return nil
}

func (r *runner) deliverEchoes(until time.Duration) error {
	for len(r.echoes) > 0 {
		slices.SortStableFunc(r.echoes, func(a, b echo) int {
			if a.due != b.due {
				return int(a.due - b.due)
			}
			if a.seq != b.seq {
				return a.seq - b.seq
			}
			return strings.Compare(a.name, b.name)
		})
		e := r.echoes[0]
		if e.due > until {
			return nil
		}
		r.echoes = r.echoes[1:]
		st := Step{I: -1, At: atSeconds(e.due), Op: "update", Source: "echo"}
		if r.tr == nil {
			continue // the informer of a stopped instance delivers nothing
		}
		if err := r.update(&st, e.doc, e.due, true); err != nil {
			return err
		}
		if err := r.add(st); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) cancelEcho(name string) {
	r.echoes = slices.DeleteFunc(r.echoes, func(e echo) bool { return e.name == name })
}

func (r *runner) event(i int, e Event, at time.Duration) error {
	st := Step{I: i, At: e.At, Op: e.Op}
	switch e.Op {
	case "update", "delete":
		doc, err := decodeDoc(e.Object)
		if err != nil {
			return err
		}
		o, err := newObject(doc)
		if err != nil {
			return err
		}
		name := o.ref.String()
		r.cancelEcho(name)
		if e.Op == "delete" {
			delete(r.cluster, name)
			st.Resource = name
			if r.tr == nil {
				st.Down = true
				break
			}
			if v := o.version(); v != "" {
				st.Version = &v
			}
			if err := r.tr.Delete(o.ref); err != nil {
				return err
			}
			r.state(&st)
			break
		}
		delivered := doc
		if r.echoWait != nil && !e.Replace && o.ref.Kind.IsWorkload() {
			delivered = r.keepOwned(name, doc)
		}
		r.cluster[name] = delivered
		if r.tr == nil {
			st.Down, st.Resource = true, name
			break
		}
		if err := r.update(&st, delivered, at, false); err != nil {
			return err
		}
		if !jsonEqual(delivered, doc) {
			st.Object, _ = json.Marshal(delivered)
		}
	case "tick", "stop":
		if r.tr == nil {
			st.Down = true
			break
		}
		r.pass(&st, r.steps, at, e.Op == "stop")
	case "kill":
		r.tr = nil
	case "start":
		if r.tr != nil {
			st.Noop = true
			break
		}
		if err := r.start(); err != nil {
			return err
		}
		r.state(&st)
		if err := r.add(st); err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(r.cluster)) {
			rs := Step{I: -1, At: e.At, Op: "update", Source: "relist"}
			if err := r.update(&rs, r.cluster[name], at, true); err != nil {
				return err
			}
			if err := r.add(rs); err != nil {
				return err
			}
		}
		return nil
	case "failPatches":
		st.Resource = e.Resource
		if e.Error == nil || *e.Error == "" {
			delete(r.fail, e.Resource)
		} else {
			r.fail[e.Resource] = *e.Error
		}
	}
	return r.add(st)
}

// keepOwned returns doc with the two annotations the controller owns taken
// from the live object when doc does not set them (apply semantics).
func (r *runner) keepOwned(name string, doc map[string]any) map[string]any {
	live, ok := r.cluster[name]
	if !ok {
		return doc
	}
	out := clone(doc).(map[string]any)
	owned := [][]string{
		{"metadata", "annotations", restart.AnnotationChecksums},
		{"spec", "template", "metadata", "annotations", restart.AnnotationTimestamp},
	}
	for _, path := range owned {
		v, ok := lookup(live, path...)
		if !ok {
			continue
		}
		if _, set := lookup(doc, path...); set {
			continue
		}
		child(out, path[:len(path)-1]...)[path[len(path)-1]] = v
	}
	return out
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// update delivers doc to the running instance and records what it computed.
func (r *runner) update(st *Step, doc map[string]any, at time.Duration, recordObject bool) error {
	o, err := newObject(doc)
	if err != nil {
		return err
	}
	st.Resource = o.ref.String()
	v := o.version()
	st.Version = &v
	if recordObject {
		st.Object, _ = json.Marshal(doc)
	}
	now := r.now(at)
	if o.ref.Kind.IsConfig() {
		c, err := o.config(r.opts.IncludeBinaryData)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Resource, err)
		}
		st.Checksum = c.Checksum
		obs, err := r.tr.ObserveConfig(c, now)
		if err != nil {
			return err
		}
		st.KnownVersion = obs.KnownVersion
	} else {
		w, err := o.workload()
		if err != nil {
			return fmt.Errorf("%s: %w", st.Resource, err)
		}
		en := restart.Enabled(w.Annotations)
		st.Enabled = &en
		refs, _, err := restart.References(w.Ref.Namespace, w.Template.Spec, r.opts.OriginalReferences)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Resource, err)
		}
		for _, ref := range refs {
			st.ReferencedConfigs = append(st.ReferencedConfigs, ref.String())
		}
		applied := map[string]string{}
		if a, ok := w.Annotations[restart.AnnotationChecksums]; ok {
			applied, _ = restart.ParseChecksums(a)
		}
		st.AppliedChecksums = &applied
		obs, err := r.tr.ObserveWorkload(w, now)
		if err != nil {
			return err
		}
		st.KnownVersion = obs.KnownVersion
		var ce *restart.ChecksumsError
		if errors.As(obs.AnnotationError, &ce) {
			st.Warnings = append(st.Warnings, fmt.Sprintf("W Failed to unmarshal config checksums annotation for %s/%s: %v. Assuming an empty map", w.Ref.Namespace, w.Ref.Name, ce.Err))
		}
	}
	r.state(st)
	return nil
}

// pass runs a restart check (or the graceful-stop pass) and sends the
// patches.
func (r *runner) pass(st *Step, i int, at time.Duration, stop bool) {
	res := r.tr.Plan(r.now(at), stop)
	st.Processed = res.Processed
	for _, pc := range res.Changes {
		if pc.Reason == restart.ReasonOrphanChange {
			st.Warnings = append(st.Warnings, "W Orphaned resource change ignored: "+pc.Resource)
		}
	}
	errs := make([]error, len(res.Patches))
	fatal := false
	var sent []string
	for j, p := range res.Patches {
		name := p.Workload.String()
		tp := Patch{
			Kind:      map[restart.Kind]string{restart.KindDeployment: "Deployment", restart.KindStatefulSet: "StatefulSet"}[p.Workload.Kind],
			Namespace: p.Workload.Namespace, Name: p.Workload.Name,
			PatchType: restart.PatchType, Body: p.Body, Restart: p.Restart,
		}
		if p.Restart {
			st.Restarts++
		}
		msg := r.fail[name]
		live, ok := r.cluster[name]
		if !ok {
			msg = fmt.Sprintf("%s %q not found", plural(p.Workload.Kind), p.Workload.Name)
		}
		if msg == "" {
			var patch any
			if err := json.Unmarshal(p.Body, &patch); err == nil {
				doc := mergePatch(live, patch).(map[string]any)
				child(doc, "metadata")["resourceVersion"] = fmt.Sprintf("patch@%d", i)
				r.cluster[name] = doc
				if r.echoWait != nil {
					sent = append(sent, name)
				}
			}
		} else {
			tp.Error = msg
			errs[j] = errors.New(msg)
			ignored := ""
			for _, pat := range r.s.IgnoredErrors {
				if strings.Contains(msg, pat) {
					ignored = pat
					break
				}
			}
			if ignored != "" {
				st.Warnings = append(st.Warnings, fmt.Sprintf("W Deployment %s failed to update, but error was configured as non-critical: %s", name, ignored))
			} else {
				if !fatal {
					st.Fatal = name + ": " + msg
				}
				fatal = true
				st.Warnings = append(st.Warnings, "E "+msg)
			}
		}
		st.Patches = append(st.Patches, tp)
	}
	slices.Sort(st.Warnings)
	r.seq++
	for _, name := range sent {
		r.echoes = append(r.echoes, echo{due: at + *r.echoWait, seq: r.seq, name: name, doc: r.cluster[name]})
	}
	r.tr.Apply(res, errs)
	if fatal {
		r.tr = nil
		return
	}
	if !stop {
		r.waiting = len(r.tr.Changes())
	}
	r.state(st)
	if stop {
		r.tr = nil
	}
}

// state records the queue and the metrics after a step.
func (r *runner) state(st *Step) {
	changes := []Change{}
	ch := r.tr.Changes()
	for _, name := range slices.Sorted(maps.Keys(ch)) {
		changes = append(changes, Change{Resource: name, Observations: ch[name].Observations, Since: ch[name].Since.Sub(Epoch()).Seconds()})
	}
	st.Changes = &changes
	c := r.tr.Counters()
	st.Metrics = &Metrics{
		ResourceVersionsTotal: c.ResourceVersions, ConfigsTotal: c.Configs, DeploymentsTotal: c.Workloads,
		DeploymentAnnotationUpdatesTotal: c.AnnotationUpdates, DeploymentRestartsTotal: c.Restarts,
		ChangesProcessedTotal: c.ChangesProcessed, ChangesWaitingTotal: r.waiting,
	}
}

func (r *runner) final() *Final {
	c := r.tr.Catalog()
	f := &Final{Configs: map[string]FinalConfig{}, Deployments: map[string]FinalWorkload{}}
	users := map[string][]string{}
	for _, wn := range slices.Sorted(maps.Keys(c.Workloads)) {
		w := c.Workloads[wn]
		fw := FinalWorkload{Configs: []string{}, AppliedChecksums: w.Applied}
		for _, ref := range slices.Compact(slices.Clone(w.Refs)) {
			if _, ok := c.Configs[ref]; ok && !slices.Contains(w.Unlinked, ref) {
				fw.Configs = append(fw.Configs, ref)
				users[ref] = append(users[ref], wn)
			}
		}
		f.Deployments[wn] = fw
	}
	for name, cfg := range c.Configs {
		d := users[name]
		if d == nil {
			d = []string{}
		}
		f.Configs[name] = FinalConfig{Checksum: cfg.Checksum, Deployments: d}
	}
	return f
}
