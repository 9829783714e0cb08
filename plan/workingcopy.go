package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// syncMemory is what a sync of Sync allocates: the plan's memory with its
// writes' memory, the working area, and room for what the working copy's
// spec points to once it owns it (ownWorkingCopy), in one allocation. (A
// Planner allocates the writes' memory at a sync's first write instead:
// its syncs, a controller's resyncs, mostly write nothing; Sync's, a
// simulator's steps, mostly write.)
type syncMemory struct {
	planMemory
	writes writeMemory
	work   workArea
	spec   specCopy
}

// workArea is what a sync works with and its plan never points to: the
// working copy and the scratch of the working lists (see rsSlice). wrote
// records whether the last sync that used it wrote (see newMemory).
type workArea struct {
	wc    model.Deployment
	rs    [rsScratch]*model.ReplicaSet
	wrote bool
}

// memoryWithWrites is a plan's memory with its writes' memory, in one
// allocation.
type memoryWithWrites struct {
	planMemory
	writes writeMemory
}

// newMemory returns a sync's plan memory, its working area, whose working
// copy is a copy of in and whose scratch backs the plan memory's working
// lists, and room for the working copy's spec (nil when the sync has
// none). A Planner's working areas come from and go back to its pool
// (workingCopies), so its plans' memory holds neither a working copy nor
// a scratch (its working copy never owns its spec); without a pool both
// are allocated with the plan's memory.
//
// A Planner's sync allocates its writes' memory with the plan's memory
// when the last sync of its working area wrote: syncs that write come in
// runs (a rollout), as do those that write nothing (the resyncs of a
// controller at rest), so it then most likely writes too, and one
// allocation does for two. Otherwise the writes' memory is allocated at
// the first write, if any (see writeMem). The plan is the same either way.
func newMemory(workingCopies *sync.Pool, in *model.Deployment) (*planMemory, *workArea, *specCopy) {
	if workingCopies != nil {
		w, _ := workingCopies.Get().(*workArea)
		if w == nil {
			w = new(workArea)
		}
		w.wc = *in
		return planMemoryFor(w), w, nil
	}
	m := new(syncMemory)
	m.planMemory.writes = &m.writes
	m.planMemory.rs = &m.work.rs
	m.work.wc = *in
	return &m.planMemory, &m.work, &m.spec
}

// planMemoryFor returns the plan memory of a Planner's sync working in w,
// with its writes' memory when the last sync in w wrote.
func planMemoryFor(w *workArea) *planMemory {
	if w.wrote {
		b := new(memoryWithWrites)
		b.planMemory.rs, b.planMemory.writes = &w.rs, &b.writes
		return &b.planMemory
	}
	return &planMemory{rs: &w.rs}
}

// releaseWork clears the working area w at the end of a sync whose plan
// memory is m: the working copy and the lists may still point into the
// input, and the plan's memory may hold them (Sync). A Planner's goes back
// to its pool, and m lets go of its scratch, so that no plan points into
// an area another sync may be using (a write sends a copy, and the plan
// keeps none of the working lists).
func releaseWork(workingCopies *sync.Pool, m *planMemory, w *workArea) {
	clear(w.rs[:m.nRS])
	w.wc = model.Deployment{}
	if workingCopies != nil {
		w.wrote = m.writes != nil && m.writes.used
		m.rs, m.nRS = nil, 0
		workingCopies.Put(w)
	}
}
