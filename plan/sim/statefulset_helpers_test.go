package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/statefulset"
)

// stsOpt adjusts a test StatefulSet.
type stsOpt func(*model.StatefulSet)

// stsSet returns the seed's "web" set (seed 004, "Components"): nginx pods
// of image nginx-slim:0.8 behind the headless Service "nginx", OrderedReady,
// RollingUpdate with partition 0.
func stsSet(replicas int32, opts ...stsOpt) *model.StatefulSet {
	s := &model.StatefulSet{
		ObjectMeta: model.ObjectMeta{Name: "web", Namespace: "default", UID: "web-uid"},
		Spec: model.StatefulSetSpec{
			Replicas:    model.Int32Ptr(replicas),
			Selector:    &model.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template:    model.PodTemplate{Labels: map[string]string{"app": "nginx"}, Spec: image("nginx-slim:0.8")},
			ServiceName: "nginx",
			UpdateStrategy: model.StatefulSetUpdateStrategy{Type: model.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &model.RollingUpdateStatefulSetStrategy{Partition: model.Int32Ptr(0)}},
		},
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// www gives the set the seed's claim template "www".
func www(s *model.StatefulSet) {
	s.Spec.VolumeClaimTemplates = []model.PersistentVolumeClaim{{ObjectMeta: model.ObjectMeta{Name: "www"},
		Spec: `{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"my-storage-class"}`}}
}

func parallelSet(s *model.StatefulSet) { s.Spec.PodManagementPolicy = model.ParallelPodManagement }

func onDeleteSet(s *model.StatefulSet) {
	s.Spec.UpdateStrategy = model.StatefulSetUpdateStrategy{Type: model.OnDeleteStatefulSetStrategyType}
}

func partitioned(p int32) stsOpt {
	return func(s *model.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.Partition = model.Int32Ptr(p) }
}

func scaledDelete(s *model.StatefulSet) {
	s.Spec.PersistentVolumeClaimRetentionPolicy = &model.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: model.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: model.DeletePersistentVolumeClaimRetentionPolicyType}
}

// mustRunSTS runs cfg with the invariant check on and fails the test on an
// error or a violation.
func mustRunSTS(t *testing.T, cfg StatefulSetConfig) *StatefulSetTrace {
	t.Helper()
	cfg.Check = true
	tr, err := RunStatefulSet(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range tr.Steps {
		for _, v := range s.Violations {
			t.Errorf("sync %d: %s", s.Sync, v)
		}
	}
	return tr
}

// happenings lists what happened, sync by sync, in order: the user's
// actions ("user delete pod web-2"), then what the kubelet did ("ready
// web-0", "gone web-2", "broken web-2" for a pod that runs but never becomes
// Ready), then the applied pod writes ("create web-0@A", the pod's revision
// letter; "delete web-2 RollingUpdate", with the reason code), from sync
// from on.
func happenings(tr *StatefulSetTrace, from int) []string {
	var out []string
	letters := map[string]string{}
	for _, s := range tr.Steps {
		for _, r := range s.Revisions {
			letters[r.Name] = r.Letter
		}
		if s.Sync < from {
			continue
		}
		for _, u := range s.User {
			out = append(out, "user "+u)
		}
		for _, k := range s.Kubelet {
			name, what, _ := strings.Cut(k, " ")
			switch what {
			case "Running and Ready":
				out = append(out, "ready "+name)
			case "Running, never Ready":
				out = append(out, "broken "+name)
			case "gone":
				out = append(out, "gone "+name)
			}
		}
		for _, w := range s.Writes {
			if !w.Applied {
				continue
			}
			switch w.Kind {
			case statefulset.CreatePod:
				// "... web-2 is created at revision NAME"
				f := strings.Fields(w.Reason.Message)
				out = append(out, fmt.Sprintf("create %s@%s", w.Name, letters[f[len(f)-1]]))
			case statefulset.DeletePod:
				out = append(out, fmt.Sprintf("delete %s %s", w.Name, w.Reason.Code))
			}
		}
	}
	return out
}

// only keeps the happenings with one of the prefixes.
func only(hs []string, prefixes ...string) []string {
	var out []string
	for _, h := range hs {
		for _, p := range prefixes {
			if strings.HasPrefix(h, p) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// userSync returns the sync of the i-th user action (0-based), or -1.
func userSync(tr *StatefulSetTrace, i int) int {
	for _, s := range tr.Steps {
		for range s.User {
			if i == 0 {
				return s.Sync
			}
			i--
		}
	}
	return -1
}

// lastStep returns the trace's last step.
func lastStep(tr *StatefulSetTrace) StatefulSetStep { return tr.Steps[len(tr.Steps)-1] }
