package predict

import (
	"fmt"
	"strconv"
	"strings"

	apps "k8s.io/api/apps/v1"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
	"github.com/rolloutplan/rolloutplan/plan/daemonset"
)

// SyncCreateUnits is the work, in units of --max-work, of an object one
// controller sync may create, charged before the sync is planned by the
// commands that plan a single sync (next, status --explain): planned,
// rendered as the apps/v1 object upstream sends and printed, a pod a
// Parallel StatefulSet creates takes 5 to 10 KB (measured on 20 000 and
// 100 000 replicas: status --explain 5.3 to 5.6 KB, next 6.9 to 8.5 KB
// in JSON and 9.5 to 10 KB in YAML), 30 units at BytesPerUnit with some
// room. A simulation charges its syncs' creates the same way, at the
// units its syncs take (plan/sim).
const SyncCreateUnits = 30

// SyncWorkUsage is --max-work's help in the commands that plan a single
// sync.
var SyncWorkUsage = fmt.Sprintf("Work bound of the sync: the objects it models, one unit each, and those it may create, %d units each "+
	"(a Parallel StatefulSet creates every missing pod in one sync), 1 to 9223372036854775807; "+
	"memory is bounded by --max-work: about %d bytes per unit at most, %.0f GB at the default", SyncCreateUnits, BytesPerUnit, float64(DefaultMaxWork*BytesPerUnit)/1e9)

// DeploymentSyncWork is the work of the Deployment controller's next sync
// of s: the objects it models, and the ReplicaSet it may create.
func DeploymentSyncWork(s appsv1.State) int64 {
	return int64(1+len(s.ReplicaSets)+len(s.Pods)) + SyncCreateUnits
}

// DaemonSetSyncWork is the work of the DaemonSet controller's next sync
// of s: the objects it models, and those it may create: the
// ControllerRevision of its template and a pod a node that needs one, at
// most daemonset.BurstReplicas.
func DaemonSetSyncWork(s appsv1.DaemonSetState) int64 {
	return int64(1+len(s.Nodes)+len(s.Pods)+len(s.ControllerRevisions)) +
		int64(1+min(len(s.Nodes), daemonset.BurstReplicas))*SyncCreateUnits
}

// StatefulSetSyncWork is the work of the StatefulSet controller's next
// sync of s: the objects it models, and an upper bound of those it may
// create: the ControllerRevision of its template, pods and claims. Upstream's controller, in one sync, creates a pod
// for every ordinal of [start, start+replicas) under the Parallel policy
// if none of them has one, with no burst limit (an ordinal whose pod
// failed, or that it releases, gets a new one in the same sync), and at
// most one pod under OrderedReady; and the claims of the
// volumeClaimTemplates that are missing, for every ordinal it processes.
// So every ordinal is charged under Parallel, a running set's as a new
// one's (at the default bound, a Parallel set of up to 333 000 replicas).
// s.StatefulSet has its spec defaults (StatefulSetSpecDefaults).
func StatefulSetSyncWork(s appsv1.StatefulSetState) int64 {
	objects := int64(1 + len(s.Pods) + len(s.ControllerRevisions) + len(s.PVCs))
	set := s.StatefulSet
	if set == nil || set.Spec.Replicas == nil {
		return objects
	}
	replicas := max(0, int64(*set.Spec.Replicas))
	pods := replicas
	if set.Spec.PodManagementPolicy != apps.ParallelPodManagement {
		pods = min(pods, 1)
	}
	start := int64(0)
	if set.Spec.Ordinals != nil {
		start = int64(set.Spec.Ordinals.Start)
	}
	// The claims that exist are not created again: those named
	// TEMPLATE-SET-ORDINAL for an ordinal in range.
	claims := replicas * int64(len(set.Spec.VolumeClaimTemplates))
	for _, c := range s.PVCs {
		for _, t := range set.Spec.VolumeClaimTemplates {
			rest, ok := strings.CutPrefix(c.Name, t.Name+"-"+set.Name+"-")
			if !ok {
				continue
			}
			if ord, err := strconv.ParseInt(rest, 10, 64); err == nil && strconv.FormatInt(ord, 10) == rest && ord >= start && ord-start < replicas {
				claims--
				break
			}
		}
	}
	// And the ControllerRevision of its template.
	return objects + (1+pods+max(0, claims))*SyncCreateUnits
}

// CheckSyncWork refuses a sync whose work is past the bound maxWork
// (--max-work), naming both.
func CheckSyncWork(work, maxWork int64) error {
	if work <= maxWork {
		return nil
	}
	return fmt.Errorf("the next sync is %d units of work (objects modelled, and %d for each object it may create), more than --max-work %d: raise --max-work",
		work, SyncCreateUnits, maxWork)
}
