package restart

import (
	"maps"
	"slices"
	"time"
)

// Catalog is what the planner knows about the cluster: the configs and the
// opted-in workloads, keyed by full name ([Ref.String]).
//
// A config entry either stands for a real ConfigMap or Secret (with its
// checksum) or is a dummy, created when a workload references a config not
// seen yet. Workload entries always stand for real workloads.
//
// A workload is linked to a config when it references the config, the config
// is in the catalog (real or dummy) and, under
// [Compat.RecreatedConfigUnlinked] only, the config was not deleted since the
// workload last linked its references.
type Catalog struct {
	Configs   map[string]ConfigEntry
	Workloads map[string]WorkloadEntry
}

// ConfigEntry is a config in the [Catalog].
type ConfigEntry struct {
	// Checksum is the data checksum; "" marks a dummy.
	Checksum string
}

// Dummy reports whether the entry merely records that a workload references
// a config the planner has not seen.
func (c ConfigEntry) Dummy() bool { return c.Checksum == "" }

// WorkloadEntry is an opted-in Deployment or StatefulSet in the [Catalog].
type WorkloadEntry struct {
	Ref Ref
	// Refs are the full names of the configs the pod template references,
	// sorted (see [References]).
	Refs []string
	// Applied is the parsed checksums annotation: the checksums of the
	// configs applied to the workload. Never nil in entries the [Tracker]
	// makes.
	Applied map[string]string
	// Baseline holds, for a reference that appeared without an applied
	// checksum, the checksum the config had when the reference was first
	// observed ("" when the config was not known then). It is cleared when
	// the workload's annotation is written.
	Baseline map[string]string
	// Restart is the last known value of the restart annotation in the pod
	// template: the value observed or the value last written.
	Restart string
	// RetryRestart records that a restart patch failed and a restart is
	// still due.
	RetryRestart bool
	// Unlinked lists referenced configs that were deleted and are not linked
	// again until the workload's references or annotation change. Only
	// [Compat.RecreatedConfigUnlinked] fills it.
	Unlinked []string
}

// linked reports whether w is linked to the config named name in c.
func (c Catalog) linked(w WorkloadEntry, name string) bool {
	if _, ok := c.Configs[name]; !ok {
		return false
	}
	if _, ok := slices.BinarySearch(w.Refs, name); !ok {
		return false
	}
	return !slices.Contains(w.Unlinked, name)
}

// Change is a pending change in the queue, keyed by the full name of the
// resource that caused it.
type Change struct {
	// Since is when the change was first observed; the grace period runs
	// from here, not from the last observation.
	Since time.Time
	// Observations counts the observations: 1, plus one for every further
	// change of the resource before the change is processed.
	Observations int
}

// Changes is the change queue, keyed by full name.
type Changes map[string]Change

// Clone returns a deep copy of the catalog.
func (c Catalog) Clone() Catalog {
	out := Catalog{Configs: maps.Clone(c.Configs), Workloads: make(map[string]WorkloadEntry, len(c.Workloads))}
	if out.Configs == nil {
		out.Configs = map[string]ConfigEntry{}
	}
	for k, w := range c.Workloads {
		out.Workloads[k] = w.clone()
	}
	return out
}

func (w WorkloadEntry) clone() WorkloadEntry {
	w.Refs = slices.Clone(w.Refs)
	w.Applied = maps.Clone(w.Applied)
	w.Baseline = maps.Clone(w.Baseline)
	w.Unlinked = slices.Clone(w.Unlinked)
	return w
}
