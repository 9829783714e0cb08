package restart

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Tracker is the planner's memory between informer events: the [Catalog],
// the [Changes] queue, the resource versions seen and the running
// [Counters]. It mirrors the original controller's agent, with the clock
// passed in explicitly. A Tracker is not safe for concurrent use; it never
// keeps a reference to the maps of its arguments.
type Tracker struct {
	opts     Options
	catalog  Catalog
	changes  Changes
	versions map[string]string
	counters Counters
}

// NewTracker returns an empty tracker. The options are validated.
func NewTracker(opts Options) (*Tracker, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Tracker{
		opts:     opts,
		catalog:  Catalog{Configs: map[string]ConfigEntry{}, Workloads: map[string]WorkloadEntry{}},
		changes:  Changes{},
		versions: map[string]string{},
	}, nil
}

// Catalog returns a copy of the catalog.
func (t *Tracker) Catalog() Catalog { return t.catalog.Clone() }

// Changes returns a copy of the change queue.
func (t *Tracker) Changes() Changes { return maps.Clone(t.changes) }

// Counters returns the running totals and the current gauges.
func (t *Tracker) Counters() Counters {
	c := t.counters
	c.Configs = len(t.catalog.Configs)
	c.Workloads = len(t.catalog.Workloads)
	c.ChangesWaiting = len(t.changes)
	return c
}

// Observation is what the tracker made of one observed resource.
type Observation struct {
	// KnownVersion: the resource was seen at this version before; nothing
	// else was done.
	KnownVersion bool
	// Changed: a change was queued (or its counter incremented).
	Changed bool
	// Enabled: a workload opted in.
	Enabled bool
	// References are a workload's referenced configs (full names).
	References []string
	// Skips are the references not tracked, with the reason.
	Skips []Skip
	// Applied is a workload's parsed checksums annotation.
	Applied map[string]string
	// AnnotationError is set when the checksums annotation is malformed; the
	// annotation then counts as empty.
	AnnotationError error
}

// knownVersion records the version of name and reports whether it was the
// one last seen (as the original, a missing record counts as version "").
func (t *Tracker) knownVersion(name, version string) bool {
	if t.versions[name] == version {
		return true
	}
	t.versions[name] = version
	t.counters.ResourceVersions++
	return false
}

// ObserveConfig records an informer add or update of a ConfigMap or Secret.
// A new config, or a new checksum of a known one (a dummy counts as having
// none), queues a change.
func (t *Tracker) ObserveConfig(c Config, now time.Time) (Observation, error) {
	if !c.Ref.Kind.IsConfig() {
		return Observation{}, fmt.Errorf("config %s: %w %q", c.Ref, ErrUnknownKind, c.Ref.Kind)
	}
	name := c.Ref.String()
	if t.knownVersion(name, c.Version) {
		return Observation{KnownVersion: true}, nil
	}
	if old, ok := t.catalog.Configs[name]; ok && old.Checksum == c.Checksum {
		return Observation{}, nil
	}
	t.catalog.Configs[name] = ConfigEntry{Checksum: c.Checksum}
	t.trackChange(name, now)
	return Observation{Changed: true}, nil
}

// ObserveWorkload records an informer add or update of a Deployment or
// StatefulSet. A workload that does not opt in is dropped from the catalog.
// A new workload, or a known one whose references or checksums annotation
// changed, queues a change. A malformed pod spec is an error and leaves the
// tracker unchanged.
func (t *Tracker) ObserveWorkload(w Workload, now time.Time) (Observation, error) {
	if !w.Ref.Kind.IsWorkload() {
		return Observation{}, fmt.Errorf("workload %s: %w %q", w.Ref, ErrUnknownKind, w.Ref.Kind)
	}
	name := w.Ref.String()
	var obs Observation
	var refs []string
	enabled := Enabled(w.Annotations)
	if enabled {
		rs, skips, err := References(w.Ref.Namespace, w.Template.Spec, t.opts.OriginalReferences)
		if err != nil {
			return Observation{}, fmt.Errorf("workload %s: spec.template.spec: %w", name, err)
		}
		for _, r := range rs {
			refs = append(refs, r.String())
		}
		obs.Skips = skips
	}
	if t.knownVersion(name, w.Version) {
		return Observation{KnownVersion: true}, nil
	}
	obs.Enabled = enabled
	if !enabled {
		t.removeWorkload(name)
		return obs, nil
	}
	applied := map[string]string{}
	if v, ok := w.Annotations[AnnotationChecksums]; ok {
		applied, obs.AnnotationError = ParseChecksums(v)
	}
	obs.References = refs
	obs.Applied = applied
	restart := w.Template.Annotations[AnnotationTimestamp]

	old, exists := t.catalog.Workloads[name]
	var oldLinked []string
	entry := WorkloadEntry{Ref: w.Ref, Refs: refs, Applied: maps.Clone(applied), Restart: restart}
	if exists {
		entry.Baseline = maps.Clone(old.Baseline)
		entry.RetryRestart = old.RetryRestart
		entry.Unlinked = old.Unlinked
		if old.Restart != "" && restart == "" {
			entry.Restart = old.Restart
		}
		if slices.Equal(old.Refs, refs) && maps.Equal(old.Applied, applied) {
			t.catalog.Workloads[name] = entry
			return obs, nil
		}
		oldLinked = linkedConfigs(t.catalog, old)
	}
	// Link every reference; dummies stand for configs not seen yet. A
	// reference new to the workload and without an applied checksum records
	// the config's checksum as its baseline.
	for i, ref := range refs {
		if i > 0 && refs[i-1] == ref {
			continue
		}
		cfg, known := t.catalog.Configs[ref]
		if !known {
			t.catalog.Configs[ref] = ConfigEntry{}
		}
		if _, was := slices.BinarySearch(old.Refs, ref); was && exists {
			continue
		}
		if _, has := applied[ref]; !has && known && !cfg.Dummy() {
			if entry.Baseline == nil {
				entry.Baseline = map[string]string{}
			}
			entry.Baseline[ref] = cfg.Checksum
		}
	}
	entry.Unlinked = nil
	t.catalog.Workloads[name] = entry
	for _, ref := range oldLinked {
		if _, still := slices.BinarySearch(refs, ref); !still {
			t.dropIfUnused(ref)
		}
	}
	t.trackChange(name, now)
	obs.Changed = true
	return obs, nil
}

// Delete records the deletion of a resource. A deleted config leaves the
// catalog with its pending change; a deleted workload too, with the dummies
// only it referenced.
func (t *Tracker) Delete(ref Ref) error {
	name := ref.String()
	switch {
	case ref.Kind.IsConfig():
		delete(t.catalog.Configs, name)
		delete(t.changes, name)
		if t.opts.Compat.RecreatedConfigUnlinked {
			for wname, w := range t.catalog.Workloads {
				if _, ok := slices.BinarySearch(w.Refs, name); ok && !slices.Contains(w.Unlinked, name) {
					w.Unlinked = append(slices.Clone(w.Unlinked), name)
					t.catalog.Workloads[wname] = w
				}
			}
		}
	case ref.Kind.IsWorkload():
		t.removeWorkload(name)
	default:
		return fmt.Errorf("delete %s: %w %q", name, ErrUnknownKind, ref.Kind)
	}
	delete(t.versions, name)
	return nil
}

func (t *Tracker) removeWorkload(name string) {
	w, ok := t.catalog.Workloads[name]
	if !ok {
		return
	}
	linked := linkedConfigs(t.catalog, w)
	delete(t.catalog.Workloads, name)
	delete(t.changes, name)
	for _, ref := range linked {
		t.dropIfUnused(ref)
	}
}

// dropIfUnused removes a dummy config no workload is linked to.
func (t *Tracker) dropIfUnused(name string) {
	cfg, ok := t.catalog.Configs[name]
	if !ok || !cfg.Dummy() {
		return
	}
	for _, w := range t.catalog.Workloads {
		if t.catalog.linked(w, name) {
			return
		}
	}
	delete(t.catalog.Configs, name)
	delete(t.changes, name)
}

func (t *Tracker) trackChange(name string, now time.Time) {
	ch, ok := t.changes[name]
	if ok {
		ch.Observations++
	} else {
		ch = Change{Since: now, Observations: 1}
	}
	t.changes[name] = ch
}

// Plan plans the changes due at now over the tracker's catalog and queue
// (see [Plan]). shutdown selects the graceful-stop pass.
func (t *Tracker) Plan(now time.Time, shutdown bool) Result {
	opts := t.opts
	opts.Shutdown = shutdown
	res, err := Plan(t.catalog, t.changes, now, opts)
	if err != nil {
		return Result{Now: now} // options were validated by NewTracker
	}
	return res
}

// Apply records the outcome of res, a plan of this tracker's state:
// errs[i] is the error of sending res.Patches[i] (nil or a short slice
// means success). A successful patch records its checksums and restart
// value. A failed one, unless [Compat.NoRetry], leaves the annotation as it
// was and queues a change of the workload at res.Now, so it is planned again
// after the grace period (with the restart, if it carried one). The
// processed changes and the own changes of the patched workloads leave the
// queue.
func (t *Tracker) Apply(res Result, errs []error) {
	var retry []string
	for i, p := range res.Patches {
		var err error
		if i < len(errs) {
			err = errs[i]
		}
		name := p.Workload.String()
		t.counters.AnnotationUpdates++
		w, ok := t.catalog.Workloads[name]
		if err == nil || t.opts.Compat.NoRetry {
			if err == nil && p.Restart {
				t.counters.Restarts++
			}
			if ok {
				w.Applied = maps.Clone(p.Checksums)
				w.Baseline = nil
				w.RetryRestart = false
				if p.Restart && err == nil {
					w.Restart = p.Timestamp
				}
			}
		} else {
			if ok && p.Restart {
				w.RetryRestart = true
			}
			retry = append(retry, name)
		}
		if ok {
			t.catalog.Workloads[name] = w
		}
		delete(t.changes, name)
	}
	t.counters.ChangesProcessed += len(res.Processed)
	for _, name := range res.Processed {
		delete(t.changes, name)
	}
	for _, name := range retry {
		if _, ok := t.catalog.Workloads[name]; ok {
			t.trackChange(name, res.Now)
		}
	}
}
