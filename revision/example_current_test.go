package revision_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// A ReplicaSet already at revision 3 with the Deployment's annotations needs
// no copy to be synced as revision 3; synced as revision 4 it does.
func ExampleNewReplicaSetAnnotationsCurrent() {
	d := &model.Deployment{}
	d.Annotations = map[string]string{"team": "web"}
	rs := &model.ReplicaSet{}
	rs.Annotations = map[string]string{"team": "web", model.RevisionAnnotation: "3"}
	fmt.Println(revision.NewReplicaSetAnnotationsCurrent(d, rs, "3", model.MaxRevisionHistoryLength))
	fmt.Println(revision.NewReplicaSetAnnotationsCurrent(d, rs, "4", model.MaxRevisionHistoryLength))
	// Output:
	// true
	// false
}
