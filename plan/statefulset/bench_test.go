package statefulset

import (
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// BenchmarkSyncRollingUpdate plans one sync of a 50-replica set in the
// middle of a rolling update with claims.
func BenchmarkSyncRollingUpdate(b *testing.B) {
	set := mkSet(50, claimsFrom("data"), template("v2"), status(revName("v1"), revName("v2"), 50))
	var pods []*model.Pod
	var claims []*model.PersistentVolumeClaim
	for o := 0; o < 50; o++ {
		v := "v1"
		if o >= 40 {
			v = "v2"
		}
		pods = append(pods, mkPod(o, v, mounts("data")))
		claims = append(claims, claim("data", o))
	}
	s := state(set, pods, []*model.ControllerRevision{v1(), v2()}, claims...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sync(s); err != nil {
			b.Fatal(err)
		}
	}
}
