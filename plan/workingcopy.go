package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// syncMemory is what a sync of Sync allocates: the plan's memory and the
// working copy, in one allocation.
type syncMemory struct {
	planMemory
	wc model.Deployment
}

// newMemory returns a sync's plan memory and its working copy, a copy of
// in. A Planner's working copies come from and go back to its pool
// (workingCopies), so its plans' memory need not hold one; without a pool
// the working copy is allocated with the plan's memory.
func newMemory(workingCopies *sync.Pool, in *model.Deployment) (*planMemory, *model.Deployment) {
	if workingCopies != nil {
		wc, _ := workingCopies.Get().(*model.Deployment)
		if wc == nil {
			wc = new(model.Deployment)
		}
		*wc = *in
		return new(planMemory), wc
	}
	m := new(syncMemory)
	m.wc = *in
	return &m.planMemory, &m.wc
}

// releaseWorkingCopy clears the working copy wc at the end of a sync: it
// may still point into the input, and the plan's memory may hold it
// (Sync). A Planner's goes back to its pool; no plan points to it (a
// write sends a copy).
func releaseWorkingCopy(workingCopies *sync.Pool, wc *model.Deployment) {
	*wc = model.Deployment{}
	if workingCopies != nil {
		workingCopies.Put(wc)
	}
}
