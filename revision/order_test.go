package revision

import (
	"slices"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func TestOrderings(t *testing.T) {
	cases := []struct {
		name, reason string
		a, b         *model.ReplicaSet
		byCreation   int
		byRevision   int
	}{
		{"older-first", "upstream FindNewReplicaSet/FindOldReplicaSets: earlier creation first", newRS("b", created(-time.Second)), newRS("a"), -1, -1},
		{"name-tie", "upstream FindNewReplicaSet/FindOldReplicaSets: equal times ⇒ name ascending", newRS("a"), newRS("b"), -1, -1},
		{"same", "same time and name ⇒ equal", newRS("a"), newRS("a"), 0, 0},
		{"revision-wins", "upstream cleanupDeployment: revision before creation time", newRS("a", rev("9")), newRS("b", rev("2"), created(time.Hour)), -1, 1},
		{"numeric-not-lexical", "upstream cleanupDeployment: revisions compare as numbers: 10 > 9", newRS("a", rev("10")), newRS("b", rev("9")), -1, 1},
		{"equal-revision", "upstream cleanupDeployment: equal revisions ⇒ creation order", newRS("a", rev("4"), created(time.Hour)), newRS("b", rev("4")), 1, 1},
		{"unparsable", "upstream cleanupDeployment: either unparsable ⇒ creation order", newRS("a", rev("x")), newRS("b", rev("1"), created(time.Hour)), -1, -1},
		{"missing-is-zero", "upstream Revision/MaxRevision/LastRevision: a missing annotation is revision 0", newRS("a", created(time.Hour)), newRS("b", rev("1")), 1, -1},
		{"sub-second", "full precision: 1ns earlier is earlier", newRS("b", created(-time.Nanosecond)), newRS("a"), -1, -1},
		{"nil-first", "nil sorts first instead of panicking", nil, newRS("a"), -1, -1},
		{"nil-nil", "two nils are equal", nil, nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			needReason(t, c.name, c.reason)
			if got := sign(byCreationTimestamp(c.a, c.b)); got != c.byCreation {
				t.Errorf("ByCreationTimestamp = %d, want %d", got, c.byCreation)
			}
			if got := sign(byCreationTimestamp(c.b, c.a)); got != -c.byCreation {
				t.Errorf("ByCreationTimestamp reversed = %d, want %d", got, -c.byCreation)
			}
			if got := sign(ByRevision(c.a, c.b)); got != c.byRevision {
				t.Errorf("ByRevision = %d, want %d", got, c.byRevision)
			}
			if got := sign(ByRevision(c.b, c.a)); got != -c.byRevision {
				t.Errorf("ByRevision reversed = %d, want %d", got, -c.byRevision)
			}
		})
	}

	rss := []*model.ReplicaSet{newRS("c", rev("3")), newRS("a", rev("10")), newRS("b", rev("2"), created(-time.Hour))}
	slices.SortFunc(rss, ByRevision)
	if got := names(rss); !slices.Equal(got, []string{"b", "c", "a"}) {
		t.Fatalf("sorted by revision: %v", got)
	}
	slices.SortFunc(rss, byCreationTimestamp)
	if got := names(rss); !slices.Equal(got, []string{"b", "a", "c"}) {
		t.Fatalf("sorted by creation: %v", got)
	}
}
