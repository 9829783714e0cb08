package plan

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// annotationsSink keeps the maps a test fills on the heap, as a plan does.
var annotationsSink map[string]string

// TestCreatedAnnotationsAreSizedOnce: a created ReplicaSet's annotations
// are set in a map made with their final size when they are more than a
// map's first group holds, and filling it then allocates less than filling
// a map made empty; with few annotations there is no map to size (nil),
// whatever the Deployment's skipped annotations. The contents are
// SetNewReplicaSetAnnotations' and SetReplicasAnnotations' either way.
func TestCreatedAnnotationsAreSizedOnce(t *testing.T) {
	withAnnotations := func(n int, skipped ...string) *model.Deployment {
		d := &model.Deployment{ObjectMeta: model.ObjectMeta{Annotations: map[string]string{}}}
		for i := range n {
			d.Annotations[fmt.Sprintf("example.com/a%d", i)] = "v"
		}
		for _, k := range skipped {
			d.Annotations[k] = "1"
		}
		return d
	}
	fill := func(d *model.Deployment, m map[string]string) map[string]string {
		rs := &model.ReplicaSet{ObjectMeta: model.ObjectMeta{Annotations: m}}
		revision.SetNewReplicaSetAnnotations(d, rs, "3", model.MaxRevisionHistoryLength)
		SetReplicasAnnotations(rs, 10, 13)
		return rs.Annotations
	}
	if m := createdAnnotations(withAnnotations(5)); m != nil {
		t.Errorf("five annotations, eight in all: a map is made in advance")
	}
	for _, c := range []struct {
		name  string
		d     *model.Deployment
		n     int
		fewer bool // than a map made empty
	}{
		// Nine on the Deployment, but three skipped: six in all, one group.
		{"few copied", withAnnotations(3, model.RevisionAnnotation, model.LastAppliedConfigAnnotation, model.DesiredReplicasAnnotation, model.MaxReplicasAnnotation, model.RollbackToAnnotation, model.RevisionHistoryAnnotation), 6, false},
		{"many", withAnnotations(12, model.RevisionAnnotation), 15, true},
	} {
		sized, empty := fill(c.d, createdAnnotations(c.d)), fill(c.d, nil)
		if len(sized) != c.n || fmt.Sprint(sized) != fmt.Sprint(empty) {
			t.Fatalf("%s: annotations %v, want %v (%d)", c.name, sized, empty, c.n)
		}
		allocsSized := testing.AllocsPerRun(50, func() { annotationsSink = fill(c.d, createdAnnotations(c.d)) })
		allocsEmpty := testing.AllocsPerRun(50, func() { annotationsSink = fill(c.d, nil) })
		if c.fewer && allocsSized >= allocsEmpty || !c.fewer && allocsSized != allocsEmpty {
			t.Errorf("%s: filling the map made for them allocates %v times, a map made empty %v", c.name, allocsSized, allocsEmpty)
		}
	}
}
