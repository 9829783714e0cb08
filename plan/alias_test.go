package plan_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// scribble changes everything reachable from v, which must be a pointer:
// every string, number, bool and time; every map entry, and one entry added
// to each map with string keys; every slice element up to the slice's
// capacity (what an append would overwrite), through pointers and
// interfaces. It is what a careless caller may do to a plan it got, so
// after it whatever the plan shared memory with has changed too.
func scribble(v any) {
	type visit struct {
		p uintptr
		t reflect.Type
	}
	seen := map[visit]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			// A pointer reached twice is changed once: some changes (a
			// bool's) would undo themselves.
			if v.IsNil() || seen[visit{v.Pointer(), v.Type()}] {
				return
			}
			seen[visit{v.Pointer(), v.Type()}] = true
			walk(v.Elem())
		case reflect.Interface:
			if v.IsNil() {
				return
			}
			e := reflect.New(v.Elem().Type()).Elem()
			e.Set(v.Elem())
			walk(e)
			if v.CanSet() {
				v.Set(e)
			}
		case reflect.Map:
			if v.IsNil() {
				return
			}
			for _, k := range v.MapKeys() {
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(v.MapIndex(k))
				walk(e)
				v.SetMapIndex(k, e)
			}
			if v.Type().Key().Kind() == reflect.String {
				e := reflect.New(v.Type().Elem()).Elem()
				walk(e)
				v.SetMapIndex(reflect.ValueOf("scribbled~").Convert(v.Type().Key()), e)
			}
		case reflect.Slice:
			if v.IsNil() {
				return
			}
			full := v.Slice(0, v.Cap())
			for i := range full.Len() {
				walk(full.Index(i))
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				if v.CanSet() {
					v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
				}
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.String:
			if v.CanSet() {
				v.SetString(v.String() + "~")
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if v.CanSet() {
				v.SetInt(v.Int() + 1)
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if v.CanSet() {
				v.SetUint(v.Uint() + 1)
			}
		case reflect.Float32, reflect.Float64:
			if v.CanSet() {
				v.SetFloat(v.Float() + 1)
			}
		case reflect.Bool:
			if v.CanSet() {
				v.SetBool(!v.Bool())
			}
		}
	}
	walk(reflect.ValueOf(v))
}

// TestScribbleDetectsSharing: scribbling over a plan that shares a map, an
// object, a pointer or a backing array with its state changes the state;
// over a plan that shares nothing, it does not. Without this the alias
// tests below could not fail.
func TestScribbleDetectsSharing(t *testing.T) {
	newState := func() plan.State {
		d := &model.Deployment{}
		d.Labels = map[string]string{"a": "b"}
		d.Spec.Replicas = model.Int32Ptr(3)
		d.Status.Conditions = make([]model.DeploymentCondition, 1, 3)
		return plan.State{Deployment: d, ReplicaSets: []*model.ReplicaSet{{}}, Now: t0}
	}
	for _, tc := range []struct {
		name   string
		plan   func(s plan.State) plan.Plan
		shared bool
	}{
		{"a fresh plan", func(plan.State) plan.Plan {
			return plan.Plan{Actions: []plan.Action{{Deployment: &plan.DeploymentUpdate{Annotations: map[string]string{"a": "b"}}}}}
		}, false},
		{"a shared map", func(s plan.State) plan.Plan {
			return plan.Plan{Actions: []plan.Action{{Deployment: &plan.DeploymentUpdate{Annotations: s.Deployment.Labels}}}}
		}, true},
		{"a shared object", func(s plan.State) plan.Plan {
			return plan.Plan{Actions: []plan.Action{{ReplicaSet: s.ReplicaSets[0]}}}
		}, true},
		{"a shared pointer", func(s plan.State) plan.Plan {
			return plan.Plan{Actions: []plan.Action{{Update: &plan.ReplicaSetUpdate{MinReadySeconds: s.Deployment.Spec.Replicas}}}}
		}, true},
		{"a shared backing array past the length", func(s plan.State) plan.Plan {
			return plan.Plan{Status: &model.DeploymentStatus{Conditions: s.Deployment.Status.Conditions[:0]}}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newState()
			before := cloneState(s)
			p := tc.plan(s)
			scribble(&p)
			assert.Equal(t, tc.shared, !cmp.Equal(before, s), "the state changed")
		})
	}
}

// TestPlansAliasNothing: no plan of a recorded state, under any option,
// shares memory with its state or with another plan of the same state
// (checkNoAlias).
func TestPlansAliasNothing(t *testing.T) {
	optionSets := [][]plan.Option{
		nil,
		{plan.WithTerminatingReplicas(false), plan.SurfaceOldReplicaSetErrors(), plan.ExactProportions(), plan.RollbackWithoutCreate(), plan.MonotonicProportions()},
		{fixedHash("abc")},
	}
	for i, s := range readConformanceStates(t) {
		for j, opts := range optionSets {
			checkNoAlias(t, fmt.Sprintf("state %d, options %d", i, j), s, opts)
		}
	}
}

// checkNoAlias plans s twice, has a caller change everything in the first
// plan, and fails the test unless the state, the second plan and a third
// made afterwards are as they were: Sync never modifies its input, and a
// plan shares memory with neither its input nor another plan.
func checkNoAlias(t *testing.T, what string, s plan.State, opts []plan.Option) {
	t.Helper()
	before := cloneState(s)
	p, err := plan.Sync(s, opts...)
	require.NoError(t, syncFailure(err), what)
	if !cmp.Equal(before, s) {
		t.Fatalf("%s: Sync modified its input (-before +after):\n%s", what, cmp.Diff(before, s))
	}
	second, err := plan.Sync(s, opts...)
	require.NoError(t, syncFailure(err), what)
	scribble(&p)
	if !cmp.Equal(before, s) {
		t.Fatalf("%s: changing the plan changed its state (-before +after):\n%s", what, cmp.Diff(before, s))
	}
	third, err := plan.Sync(s, opts...)
	require.NoError(t, syncFailure(err), what)
	if !cmp.Equal(second, third) {
		t.Fatalf("%s: changing one plan changed another (-second +third):\n%s", what, cmp.Diff(second, third))
	}
}

// syncFailure is err unless it is only the error upstream's sync ends with
// (a *plan.SyncError, whose plan is still upstream's): nil then.
func syncFailure(err error) error {
	if serr := (*plan.SyncError)(nil); errors.As(err, &serr) {
		return nil
	}
	return err
}
