package revision_test

import (
	"maps"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// TestNewReplicaSetAnnotationsCurrent checks the read-only question against
// the real thing: over every combination of Deployment annotations,
// ReplicaSet annotations (nil, empty, revisions numeric, empty and not, a
// history) and new revisions, NewReplicaSetAnnotationsCurrent is true
// exactly when SetNewReplicaSetAnnotations on a copy leaves the copy's
// annotations as they were (nil stays nil), and it never changes its input.
func TestNewReplicaSetAnnotationsCurrent(t *testing.T) {
	deployments := []map[string]string{
		nil,
		{},
		{"team": "a"},
		{"team": "a", model.RevisionAnnotation: "7", model.DesiredReplicasAnnotation: "3"},
		{"team": "", "owner": "x"},
	}
	replicaSets := []map[string]string{
		nil,
		{},
		{"team": "a"},
		{"team": "b", model.RevisionAnnotation: "3"},
		{"team": "a", model.RevisionAnnotation: "5"},
		{"team": "a", "owner": "x", model.RevisionAnnotation: "5", model.RevisionHistoryAnnotation: "1,2"},
		{"team": "", "owner": "x", model.RevisionAnnotation: ""},
		{"team": "a", model.RevisionAnnotation: "abc"},
		{model.RevisionAnnotation: "5"},
	}
	revisions := []string{"", "x", "1", "5", "6", "+9"}
	var current, changing int
	for _, da := range deployments {
		for _, ra := range replicaSets {
			for _, rev := range revisions {
				d := &model.Deployment{}
				d.Annotations = da
				rs := &model.ReplicaSet{}
				rs.Annotations = maps.Clone(ra)
				got := revision.NewReplicaSetAnnotationsCurrent(d, rs, rev, 10)
				if !maps.Equal(rs.Annotations, ra) || (rs.Annotations == nil) != (ra == nil) {
					t.Fatalf("d %v, rs %v, revision %q: NewReplicaSetAnnotationsCurrent changed rs to %v", da, ra, rev, rs.Annotations)
				}
				revision.SetNewReplicaSetAnnotations(d, rs, rev, 10)
				want := maps.Equal(rs.Annotations, ra) && (rs.Annotations == nil) == (ra == nil)
				if got != want {
					t.Fatalf("d %v, rs %v, revision %q: current %v, but SetNewReplicaSetAnnotations makes %v", da, ra, rev, got, rs.Annotations)
				}
				if got {
					current++
				} else {
					changing++
				}
			}
		}
	}
	if current < 20 || changing < 20 {
		t.Fatalf("%d current and %d changing combinations: the table tests too little", current, changing)
	}
	if !revision.NewReplicaSetAnnotationsCurrent(&model.Deployment{}, nil, "1", 10) {
		t.Fatal("a nil ReplicaSet is not current")
	}
}
