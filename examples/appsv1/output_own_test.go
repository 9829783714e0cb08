package appsv1_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// TestOutputIsTheCallers: an Output shares no memory with the State, the
// Plan or another Output. Every write of one Output, changed everywhere
// (scribble), leaves the State, the Plan, a second Output of the same
// plan, and the next Output of a Syncer (whose cache the first one came
// from) as they were; and so does scribbling the second. On every public
// case and scenario step.
func TestOutputIsTheCallers(t *testing.T) {
	writes := 0
	for gi, g := range caseGroups(t) {
		c := appsv1.NewSyncer()
		for i, cs := range g {
			id := fmt.Sprintf("group %d case %d", gi, i)
			s, want := twice(t, cs)
			out, p, err := appsv1.Sync(s)
			require.False(t, planningFailed(err), "%s: %v", id, err)
			second, err := appsv1.ToOutput(s, p)
			require.NoError(t, err, id)
			_, _, err = c.Sync(s) // converted: the next one comes from the cache
			require.False(t, planningFailed(err), "%s: %v", id, err)
			warm, _, err := c.Sync(s)
			require.False(t, planningFailed(err), "%s: %v", id, err)

			planJSON, secondJSON, warmJSON := mustJSON(t, p), mustJSON(t, second), mustJSON(t, warm)
			scribble(reflect.ValueOf(&out))
			scribble(reflect.ValueOf(&warm))
			for _, w := range out.Actions {
				require.Equal(t, "scribbled", w.Name, "%s: scribble missed a write", id)
			}
			writes += len(out.Actions)

			require.True(t, reflect.DeepEqual(want, s), "%s: changing an Output changed the State", id)
			require.Equal(t, planJSON, mustJSON(t, p), "%s: changing an Output changed the Plan", id)
			require.Equal(t, secondJSON, mustJSON(t, second), "%s: changing an Output changed another Output of the plan", id)
			next, _, err := c.Sync(s)
			require.False(t, planningFailed(err), "%s: %v", id, err)
			require.Equal(t, warmJSON, mustJSON(t, next), "%s: changing a Syncer's Output changed its next one", id)

			scribble(reflect.ValueOf(&second))
			require.True(t, reflect.DeepEqual(want, s), "%s: changing an Output changed the State", id)
			require.Equal(t, planJSON, mustJSON(t, p), "%s: changing an Output changed the Plan", id)
			again, err := appsv1.ToOutput(s, p)
			require.NoError(t, err, id)
			require.Equal(t, secondJSON, mustJSON(t, again), "%s: the plan's Output changed", id)
		}
	}
	require.NotZero(t, writes)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

var timeType = reflect.TypeFor[time.Time]()

// scribble changes in place every value reachable from v that can be set:
// strings, numbers and booleans, times, and map entries (and adds one to
// every map with string keys). Unexported fields are left alone.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.Map {
				scribble(v.Elem()) // a map in an interface: its entries can be set
				return
			}
			if v.Kind() == reflect.Interface && v.CanSet() && v.Elem().Kind() != reflect.Pointer {
				c := reflect.New(v.Elem().Type()).Elem()
				c.Set(v.Elem())
				scribble(c)
				v.Set(c)
				return
			}
			scribble(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if v.CanSet() {
				v.Set(reflect.ValueOf(time.Unix(7, 0)))
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				scribble(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			scribble(e)
			v.SetMapIndex(k, e)
		}
		if v.Type().Key().Kind() == reflect.String {
			v.SetMapIndex(reflect.ValueOf("scribbled").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString("scribbled")
		}
	case reflect.Bool:
		if v.CanSet() {
			v.SetBool(!v.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.CanSet() {
			v.SetInt(-7)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.CanSet() {
			v.SetUint(7)
		}
	case reflect.Float32, reflect.Float64:
		if v.CanSet() {
			v.SetFloat(-7)
		}
	}
}
