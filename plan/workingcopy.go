package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// syncMemory is what a sync of Sync allocates: the plan's memory with its
// writes' memory, the working copy, and room for what the working copy's
// spec points to once it owns it (ownWorkingCopy), in one allocation. (A
// Planner allocates the writes' memory at a sync's first write instead:
// its syncs, a controller's resyncs, mostly write nothing; Sync's, a
// simulator's steps, mostly write.)
type syncMemory struct {
	planMemory
	writes writeMemory
	wc     model.Deployment
	spec   specCopy
}

// newMemory returns a sync's plan memory, its working copy, a copy of in,
// and room for the working copy's spec (nil when the sync has none). A
// Planner's working copies come from and go back to its pool
// (workingCopies), so its plans' memory holds neither (its working copy
// never owns its spec); without a pool both are allocated with the plan's
// memory.
func newMemory(workingCopies *sync.Pool, in *model.Deployment) (*planMemory, *model.Deployment, *specCopy) {
	if workingCopies != nil {
		wc, _ := workingCopies.Get().(*model.Deployment)
		if wc == nil {
			wc = new(model.Deployment)
		}
		*wc = *in
		return new(planMemory), wc, nil
	}
	m := new(syncMemory)
	m.planMemory.writes = &m.writes
	m.wc = *in
	return &m.planMemory, &m.wc, &m.spec
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
