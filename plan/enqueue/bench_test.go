package enqueue_test

import (
	"fmt"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/enqueue"
)

// benchCache: 100 Deployments with 10 ReplicaSets and 30 pods each, the
// scale of a busy namespace.
func benchCache() enqueue.Cache {
	var c enqueue.Cache
	for i := range 100 {
		name := fmt.Sprintf("d%d", i)
		c.Deployments = append(c.Deployments, dep(name, "u"+name, model.RecreateStrategy, lbl("app", name)))
		for j := range 10 {
			rname := fmt.Sprintf("%s-%d", name, j)
			c.ReplicaSets = append(c.ReplicaSets, rs(rname, "u"+rname, "1", lbl("app", name, "h", rname), ownedBy("Deployment", name, "u"+name)))
			for k := range 3 {
				c.Pods = append(c.Pods, pod(fmt.Sprintf("%s-%d", rname, k), lbl("app", name, "h", rname), ownedBy("ReplicaSet", rname, "u"+rname)))
			}
		}
	}
	return c
}

func BenchmarkAddOrphanReplicaSet(b *testing.B) {
	c := benchCache()
	r := rs("x", "ux", "1", lbl("app", "d50", "h", "x"), nil)
	b.ReportAllocs()
	for b.Loop() {
		enqueue.AddReplicaSet(r, c)
	}
}

func BenchmarkUpdateOwnedReplicaSet(b *testing.B) {
	c := benchCache()
	old := c.ReplicaSets[505]
	cur := old.DeepCopy()
	cur.ResourceVersion = "2"
	b.ReportAllocs()
	for b.Loop() {
		enqueue.UpdateReplicaSet(old, cur, c)
	}
}

func BenchmarkDeletePod(b *testing.B) {
	c := benchCache()
	p := c.Pods[1500]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := enqueue.DeletePod(p, c); err != nil {
			b.Fatal(err)
		}
	}
}
