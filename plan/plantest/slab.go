package plantest

import "github.com/rolloutplan/rolloutplan/model"

// slabSize is the number of objects allocated at once.
const slabSize = 32

// slabs hands out new objects from arrays allocated slabSize at a time: one
// allocation per slabSize written objects instead of one each. Every
// object gets a slot of its own that is never handed out again, so a new
// object is always a new pointer, as with new. A slab stays in memory
// while any of its objects is reachable.
//
// A Cluster holds its slabs by pointer, so that copies of a Cluster take
// distinct slots from the same slabs.
type slabs struct {
	replicaSets []model.ReplicaSet
	deployments []model.Deployment
}

// newReplicaSet returns a new zero ReplicaSet.
func (c *Cluster) newReplicaSet() *model.ReplicaSet { return take(&c.slabs().replicaSets) }

// newDeployment returns a new zero Deployment.
func (c *Cluster) newDeployment() *model.Deployment { return take(&c.slabs().deployments) }

// take hands out the next slot of *slab, allocating a new slab of slabSize
// objects when it is used up.
func take[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, slabSize)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

func (c *Cluster) slabs() *slabs {
	if c.slab == nil {
		c.slab = &slabs{}
	}
	return c.slab
}
