package restart

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// PatchType is the content type of every [Patch]: a JSON merge patch
// (RFC 7386), as the original sends.
const PatchType = "application/merge-patch+json"

// Result is the outcome of [Plan].
type Result struct {
	// Now is the time the plan was made for.
	Now time.Time
	// Processed are the full names of the changes processed, sorted.
	Processed []string
	// Changes says, for each processed change, which workloads it affects.
	Changes []ProcessedChange
	// Patches holds one patch per workload whose annotation must be written,
	// sorted by workload full name.
	Patches []Patch
	// NextDue is when the earliest change left in the queue comes due; zero
	// when none is left. RequeueAfter is NextDue minus now (zero when none).
	NextDue      time.Time
	RequeueAfter time.Duration
	// Counters are the numbers the original's metrics report, for this plan.
	Counters Counters
}

// ProcessedChange is one processed change.
type ProcessedChange struct {
	Resource string
	// Affected are the workloads it affects, sorted: all workloads linked
	// to a config, or the workload itself.
	Affected []string
	// Reason is [ReasonOrphanChange] when the resource is gone, else empty.
	Reason Reason
}

// Patch is the one request that updates a workload's checksums annotation
// and, when a restart is due, its pod template.
type Patch struct {
	Workload Ref
	// Checksums is the new value of the checksums annotation, parsed.
	Checksums map[string]string
	// Restart reports that the template's restart annotation is set, to
	// Timestamp.
	Restart   bool
	Timestamp string
	// Decisions give a reason for every config whose checksum is written or
	// purged, sorted by config.
	Decisions []Decision
	// Body is the JSON merge patch ([PatchType]).
	Body []byte
}

// Decision is the planner's decision for one config of a workload.
type Decision struct {
	Config string
	Reason Reason
}

// Counters are the values of the original's metrics. From [Plan] they count
// that plan alone; from [Tracker.Counters] they are running totals (the
// gauges ChangesWaiting, Configs and Workloads are current values).
type Counters struct {
	ResourceVersions  int
	AnnotationUpdates int
	Restarts          int
	ChangesProcessed  int
	ChangesWaiting    int
	Configs           int
	Workloads         int
}

// Plan decides what to do with the changes that are due at now: those whose
// grace period has passed since their first observation (with
// [Options.Shutdown], those observed more than once). For each, it finds the
// workloads affected (a config change affects every workload linked to the
// config, a workload change the workload itself) and, for every affected
// workload whose annotation differs from the catalog, one [Patch]:
//
//   - the checksums of all linked, non-dummy configs are written and the
//     checksums of configs no longer linked purged;
//   - a restart is due, by rule 1, when the workload already had a checksum
//     for a config and it differs; by rule 2, when it had none but the
//     config's change counter (due or not) is greater than one; and, unless
//     [Compat.MissSingleUpdate], when it had none but the config changed
//     after the workload first referenced it, or a restart patch failed.
//
// Plan neither modifies its inputs nor reads a clock; [Tracker.Apply]
// records the outcome. Invalid options are the only error.
func Plan(c Catalog, changes Changes, now time.Time, opts Options) (Result, error) {
	if err := opts.Validate(); err != nil {
		return Result{}, err
	}
	res := Result{Now: now}
	for name, ch := range changes {
		if due(ch, now, opts) {
			res.Processed = append(res.Processed, name)
		}
	}
	slices.Sort(res.Processed)

	var users map[string][]string     // config -> linked workloads, built on demand
	toUpdate := map[string][]string{} // workloads to patch -> their linked configs
	for _, name := range res.Processed {
		pc := ProcessedChange{Resource: name}
		if _, ok := c.Configs[name]; ok {
			if users == nil {
				users = linkedUsers(c)
			}
			pc.Affected = users[name]
		} else if _, ok := c.Workloads[name]; ok {
			pc.Affected = []string{name}
		} else {
			pc.Reason = ReasonOrphanChange
		}
		for _, wname := range pc.Affected {
			if _, ok := toUpdate[wname]; ok {
				continue
			}
			w := c.Workloads[wname]
			if linked := linkedConfigs(c, w); needsUpdate(c, w, linked, opts) {
				toUpdate[wname] = linked
			}
		}
		res.Changes = append(res.Changes, pc)
	}

	for _, name := range slices.Sorted(maps.Keys(toUpdate)) {
		res.Patches = append(res.Patches, decide(c, changes, c.Workloads[name], toUpdate[name], now, opts))
	}

	// What stays queued: not processed, and not the own change of a workload
	// that is patched now.
	waiting := 0
	for name, ch := range changes {
		_, patched := toUpdate[name]
		if _, done := slices.BinarySearch(res.Processed, name); done || patched {
			continue
		}
		waiting++
		at := ch.Since.Add(opts.GracePeriod)
		if res.NextDue.IsZero() || at.Before(res.NextDue) {
			res.NextDue = at
		}
	}
	if !res.NextDue.IsZero() && res.NextDue.After(now) {
		res.RequeueAfter = res.NextDue.Sub(now)
	}
	res.Counters = Counters{
		AnnotationUpdates: len(res.Patches),
		ChangesProcessed:  len(res.Processed),
		ChangesWaiting:    waiting,
		Configs:           len(c.Configs),
		Workloads:         len(c.Workloads),
	}
	for _, p := range res.Patches {
		if p.Restart {
			res.Counters.Restarts++
		}
	}
	return res, nil
}

func due(ch Change, now time.Time, opts Options) bool {
	if opts.Shutdown {
		return ch.Observations > 1
	}
	return now.Sub(ch.Since) >= opts.GracePeriod
}

// linkedUsers indexes, for every config, the workloads linked to it, sorted.
func linkedUsers(c Catalog) map[string][]string {
	users := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(c.Workloads)) {
		w := c.Workloads[name]
		for i, ref := range w.Refs {
			if i > 0 && w.Refs[i-1] == ref {
				continue
			}
			if c.linked(w, ref) {
				users[ref] = append(users[ref], name)
			}
		}
	}
	return users
}

// linkedConfigs returns the distinct configs w is linked to, sorted.
func linkedConfigs(c Catalog, w WorkloadEntry) []string {
	var out []string
	for i, ref := range w.Refs {
		if (i == 0 || w.Refs[i-1] != ref) && c.linked(w, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// needsUpdate reports whether w's annotation differs from the catalog: a
// linked real config with another checksum, or a checksum of a config not
// linked (or a pending restart retry). linked is linkedConfigs(c, w).
func needsUpdate(c Catalog, w WorkloadEntry, linked []string, opts Options) bool {
	if w.RetryRestart && !opts.Compat.NoRetry {
		return true
	}
	for _, name := range linked {
		cfg := c.Configs[name]
		if !cfg.Dummy() && cfg.Checksum != w.Applied[name] {
			return true
		}
	}
	for name := range w.Applied {
		if _, ok := slices.BinarySearch(linked, name); !ok {
			return true
		}
	}
	return false
}

// decide writes the patch of w; linked is linkedConfigs(c, w).
func decide(c Catalog, changes Changes, w WorkloadEntry, linked []string, now time.Time, opts Options) Patch {
	p := Patch{Workload: w.Ref, Checksums: make(map[string]string, len(w.Applied))}
	for _, name := range linked {
		cfg := c.Configs[name]
		old, had := w.Applied[name]
		switch {
		case cfg.Dummy():
			if had {
				p.Checksums[name] = old
			}
			continue
		case had && old == cfg.Checksum:
			p.Checksums[name] = old
			continue
		case had:
			p.Restart = true
			p.Decisions = append(p.Decisions, Decision{name, ReasonChecksumChanged})
		case changes[name].Observations > 1:
			p.Restart = true
			p.Decisions = append(p.Decisions, Decision{name, ReasonChangedAgain})
		case !opts.Compat.MissSingleUpdate && w.Baseline[name] != "" && w.Baseline[name] != cfg.Checksum:
			p.Restart = true
			p.Decisions = append(p.Decisions, Decision{name, ReasonChangedSinceReferenced})
		default:
			p.Decisions = append(p.Decisions, Decision{name, ReasonRecordChecksum})
		}
		p.Checksums[name] = cfg.Checksum
	}
	for _, name := range slices.Sorted(maps.Keys(w.Applied)) {
		if _, ok := slices.BinarySearch(linked, name); !ok {
			p.Decisions = append(p.Decisions, Decision{name, ReasonPurgeChecksum})
		}
	}
	slices.SortStableFunc(p.Decisions, func(a, b Decision) int { return strings.Compare(a.Config, b.Config) })
	if w.RetryRestart && !opts.Compat.NoRetry && !p.Restart {
		p.Restart = true
		p.Decisions = append(p.Decisions, Decision{w.Ref.String(), ReasonRetryRestart})
	}
	if p.Restart {
		p.Timestamp = timestamp(w.Restart, now, opts)
	}
	p.Body = patchBody(p)
	return p
}

// timestamp formats now for the restart annotation. Unless
// [Compat.SameSecondTimestamp], a value equal to the last one is written with
// nanoseconds instead, so that the template changes (the finer value cannot
// equal the coarse one that equals last).
func timestamp(last string, now time.Time, opts Options) string {
	v := now.Format(opts.layout())
	if opts.Compat.SameSecondTimestamp || v != last {
		return v
	}
	return now.Format(opts.finerLayout())
}

// patchBody writes the JSON merge patch as the original's json.Marshal of
// its nested maps writes it (keys sorted: "metadata" before "spec").
func patchBody(p Patch) []byte {
	ann := appendChecksums(make([]byte, 0, 32*len(p.Checksums)+2), p.Checksums)
	b := make([]byte, 0, 2*len(ann)+200)
	b = append(b, `{"metadata":{"annotations":{"`+AnnotationChecksums+`":`...)
	b = appendJSONString(b, string(ann))
	b = append(b, `}}`...)
	if p.Restart {
		b = append(b, `,"spec":{"template":{"metadata":{"annotations":{"`+AnnotationTimestamp+`":`...)
		b = appendJSONString(b, p.Timestamp)
		b = append(b, `}}}}`...)
	}
	return append(b, '}')
}
