package plan_test

import (
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// memRegion is a block of memory a value reaches: a pointer's target, a
// slice's backing array (up to its capacity) or a map (its identity).
type memRegion struct {
	lo, hi uintptr
	path   string
}

// reachableMemory lists the memory v reaches through pointers, maps and
// slices. Strings are immutable, so sharing one is harmless and they are not
// listed; neither is a time.Time's location.
func reachableMemory(v any) []memRegion {
	var out []memRegion
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			p := uintptr(v.UnsafePointer())
			if size := v.Type().Elem().Size(); size > 0 {
				out = append(out, memRegion{p, p + size, path})
			}
			if seen[p] {
				return
			}
			seen[p] = true
			walk(v.Elem(), path)
		case reflect.Map:
			if v.IsNil() {
				return
			}
			p := uintptr(v.UnsafePointer())
			out = append(out, memRegion{p, p + 1, path})
			for it := v.MapRange(); it.Next(); {
				walk(it.Value(), path+"["+fmt.Sprint(it.Key())+"]")
			}
		case reflect.Slice:
			if v.IsNil() || v.Cap() == 0 {
				return
			}
			p := uintptr(v.UnsafePointer())
			if size := uintptr(v.Cap()) * v.Type().Elem().Size(); size > 0 {
				out = append(out, memRegion{p, p + size, path})
			}
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(v), "")
	return out
}

// sharedMemory returns a description of the first memory region of b that
// overlaps one of a, or "".
func sharedMemory(a, b any) string {
	ra := reachableMemory(a)
	sort.Slice(ra, func(i, j int) bool { return ra[i].lo < ra[j].lo })
	for _, r := range reachableMemory(b) {
		i := sort.Search(len(ra), func(i int) bool { return ra[i].hi > r.lo })
		for ; i < len(ra) && ra[i].lo < r.hi; i++ {
			if ra[i].hi > r.lo {
				return fmt.Sprintf("plan%s shares memory with state%s", r.path, ra[i].path)
			}
		}
	}
	return ""
}

func TestSharedMemoryDetects(t *testing.T) {
	d := &model.Deployment{}
	d.Labels = map[string]string{"a": "b"}
	d.Status.Conditions = make([]model.DeploymentCondition, 1, 3)
	rs := &model.ReplicaSet{}
	for _, tc := range []struct {
		name string
		p    plan.Plan
		want bool
	}{
		{"a fresh plan", plan.Plan{Actions: []plan.Action{{Deployment: &model.Deployment{}}}}, false},
		{"a shared map", plan.Plan{Actions: []plan.Action{{Deployment: &model.Deployment{ObjectMeta: model.ObjectMeta{Labels: d.Labels}}}}}, true},
		{"a shared object", plan.Plan{Actions: []plan.Action{{ReplicaSet: rs}}}, true},
		{"a shared backing array past the length", plan.Plan{Status: &model.DeploymentStatus{Conditions: d.Status.Conditions[1:2]}}, true},
	} {
		s := plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{rs}}
		if got := sharedMemory(s, tc.p) != ""; got != tc.want {
			t.Errorf("%s: shared = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestConformancePlansShareNoMemory: no plan of a recorded state, under any
// option, reaches memory its state reaches (Plan's contract; the copy-on-write
// of the working copy and of written ReplicaSets must never hand out the
// input's maps, slices or pointers).
func TestConformancePlansShareNoMemory(t *testing.T) {
	optionSets := [][]plan.Option{
		nil,
		{plan.WithTerminatingReplicas(false), plan.SurfaceOldReplicaSetErrors(), plan.ExactProportions(), plan.RollbackWithoutCreate(), plan.MonotonicProportions()},
		{fixedHash("abc")},
	}
	for i, s := range readConformanceStates(t) {
		for j, opts := range optionSets {
			p, err := plan.Sync(s, opts...)
			if err != nil {
				t.Fatalf("state %d, options %d: %v", i, j, err)
			}
			if shared := sharedMemory(s, p); shared != "" {
				t.Errorf("state %d, options %d: %s", i, j, shared)
			}
		}
	}
	for _, sc := range corpus() {
		p, err := plan.Sync(sc.state, sc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if shared := sharedMemory(sc.state, p); shared != "" {
			t.Errorf("%s: %s", sc.name, shared)
		}
	}
}
