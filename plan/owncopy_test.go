package plan_test

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan"
)

// fillAll sets every field v reaches: pointers to filled values, maps and
// slices of two filled entries, strings, numbers and booleans to non-zero
// values. A field added to the model later is filled too, so a copy that
// drops or shares it fails the tests below.
func fillAll(v reflect.Value, seed *int) {
	*seed++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillAll(v.Elem(), seed)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillAll(k, seed)
			fillAll(e, seed)
			v.SetMapIndex(k, e)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillAll(v.Index(i), seed)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(int64(*seed), 0).UTC()))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillAll(v.Field(i), seed)
			}
		}
	case reflect.String:
		v.SetString("v" + strconv.Itoa(*seed))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*seed))
	case reflect.Bool:
		v.SetBool(true)
	}
}

// TestPlanCopiesAreComplete: the plan's copies of a ReplicaSet and of a
// Deployment's metadata and spec equal the original in every field and
// share no memory with it (its annotations and status aside, for the
// Deployment, which the sync copies on write or replaces), including when the label maps are equal and
// the copy gives them one map.
func TestPlanCopiesAreComplete(t *testing.T) {
	for _, equalLabels := range []bool{false, true} {
		seed := 0
		var rs model.ReplicaSet
		fillAll(reflect.ValueOf(&rs).Elem(), &seed)
		var d model.Deployment
		fillAll(reflect.ValueOf(&d).Elem(), &seed)
		if equalLabels {
			rs.Spec.Template.Labels = map[string]string{"app": "web"}
			rs.Labels = map[string]string{"app": "web"}
			rs.Spec.Selector.MatchLabels = map[string]string{"app": "web"}
			d.Labels = map[string]string{"app": "web"}
			d.Spec.Template.Labels = map[string]string{"app": "web"}
			d.Spec.Selector.MatchLabels = map[string]string{"app": "web"}
		}
		c := plan.CopyReplicaSet(&rs)
		if diff := cmp.Diff(&rs, c); diff != "" {
			t.Errorf("copyReplicaSet differs (-original +copy):\n%s", diff)
		}
		if shared := sharedMemory(&rs, c); shared != "" {
			t.Errorf("copyReplicaSet: %s", shared)
		}
		if equalLabels && !sameMap(c.Labels, c.Spec.Template.Labels) {
			t.Error("copyReplicaSet: equal label maps are not one map")
		}
		od := plan.OwnDeployment(&d)
		if diff := cmp.Diff(&d, od); diff != "" {
			t.Errorf("the owned Deployment differs (-original +copy):\n%s", diff)
		}
		withoutAnnotations := d // and without status, which the sync copies or replaces on its own
		withoutAnnotations.Annotations, withoutAnnotations.Status = nil, model.DeploymentStatus{}
		od.Annotations, od.Status = nil, model.DeploymentStatus{}
		if shared := sharedMemory(&withoutAnnotations, od); shared != "" {
			t.Errorf("the owned Deployment: %s", shared)
		}
	}
}
