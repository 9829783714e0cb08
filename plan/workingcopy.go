package plan

import (
	"sync"

	"github.com/rolloutplan/rolloutplan/model"
)

// syncMemory is what a sync of Sync allocates: the plan's memory with its
// writes' memory, the working area, room for what the working copy's spec
// points to once it owns it (ownWorkingCopy), and the first chunk of the
// plan's text (see planMemory.text), in one allocation. (A
// Planner allocates the writes' memory at a sync's first write instead:
// its syncs, a controller's resyncs, mostly write nothing; Sync's, a
// simulator's steps, mostly write.)
type syncMemory struct {
	planMemory
	writeRoom writeMemory // what planMemory.writes points to
	work      workArea
	spec      specCopy
	text      [syncTextSize]byte // the first chunk of the plan's text
}

// plannerMemory is what a Planner's sync allocates: the plan's memory and
// the first chunk of its text.
type plannerMemory struct {
	planMemory
	text [plannerTextSize]byte
}

// workArea is what a sync works with and its plan never points to: the
// working copy and the scratch of the working lists (see rsSlice).
type workArea struct {
	wc model.Deployment
	rs [rsScratch]*model.ReplicaSet
}

// newMemory returns a sync's plan memory, its working area, whose working
// copy is a copy of in and whose scratch backs the plan memory's working
// lists, and room for the working copy's spec (nil when the sync has
// none). A Planner's working areas come from and go back to its pool
// (workingCopies), so its plans' memory holds neither a working copy nor
// a scratch (its working copy never owns its spec); without a pool both
// are allocated with the plan's memory.
func newMemory(workingCopies *sync.Pool, in *model.Deployment) (*planMemory, *workArea, *specCopy) {
	if workingCopies != nil {
		w, _ := workingCopies.Get().(*workArea)
		if w == nil {
			w = new(workArea)
		}
		w.wc = *in
		m := new(plannerMemory)
		m.rs = &w.rs
		m.textChunk = m.text[:0]
		return &m.planMemory, w, nil
	}
	m := new(syncMemory)
	m.writes = &m.writeRoom
	m.rs = &m.work.rs
	m.textChunk = m.text[:0]
	m.work.wc = *in
	return &m.planMemory, &m.work, &m.spec
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
		m.rs, m.nRS = nil, 0
		workingCopies.Put(w)
	}
}
