package revision

import (
	"strconv"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
)

// thousandOldRSs is a long-lived Deployment's history: 1000 old ReplicaSets,
// scaled down and observed, created a minute apart, listed in name order (as
// the API returns them) rather than creation or revision order.
func thousandOldRSs() []*model.ReplicaSet {
	out := make([]*model.ReplicaSet, 1000)
	for i := range out {
		out[i] = newRS("web-"+strconv.Itoa(i), rev(strconv.Itoa(i+1)), created(time.Duration(i)*time.Minute), generation(2, 2))
	}
	// Name order interleaves revisions: web-1, web-10, web-100, ...
	for i := range out {
		j := (i * 7919) % len(out)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func BenchmarkToDelete1000(b *testing.B) {
	rss := thousandOldRSs()
	limit := model.Int32Ptr(10)
	b.ReportAllocs()
	for b.Loop() {
		if len(ToDelete(rss, limit)) != 990 {
			b.Fatal("wrong result")
		}
	}
}

func BenchmarkMaxRevision1000(b *testing.B) {
	rss := thousandOldRSs()
	b.ReportAllocs()
	for b.Loop() {
		if MaxRevision(rss) != 1000 {
			b.Fatal("wrong result")
		}
	}
}

func BenchmarkSetNewReplicaSetAnnotations(b *testing.B) {
	d := webDeployment("web:1")
	d.Annotations = map[string]string{model.ChangeCauseAnnotation: "deploy", "team": "shop", model.RevisionAnnotation: "7"}
	b.ReportAllocs()
	for b.Loop() {
		rs := newRS("web-1", rev("5"), ann(model.RevisionHistoryAnnotation, "1,3"))
		SetNewReplicaSetAnnotations(d, rs, "8", model.MaxRevisionHistoryLength)
	}
}
