package plan

import "github.com/rolloutplan/rolloutplan/model"

// writeMemory is the part of a plan's memory that only a sync that writes
// (or records an event) uses: up to two actions and one event (the plan's
// slices start in these arrays and move out when they grow past them), and
// the Deployment its first Deployment write sends. A Planner's sync
// allocates it at its first write (or, when the last sync of its working
// area wrote, with its plan memory: see newMemory), so a run of syncs that
// write nothing, the steady state of a controller, allocates none of it;
// Sync's comes with the rest of the sync's memory (see syncMemory).
type writeMemory struct {
	actions [2]Action
	events  [1]Event
	sent    [1]model.Deployment
	nSent   int
	// more, when set, is room for what a sync that creates a ReplicaSet
	// usually writes beyond the above (see moreWrites).
	more *moreWrites
	// used is set when the sync writes (or records an event): a Planner's
	// sync may be given its writes' memory before (see newMemory).
	used bool
}

// moreWrites is room for the writes of a sync that creates a ReplicaSet:
// it records the create, the Deployment's new revision and then its
// status, three actions and two Deployment writes where most syncs need
// two and one. It comes with the created ReplicaSet (see created), so the
// plan's actions move here, and its second Deployment write sends this
// Deployment, instead of each allocating on its own.
type moreWrites struct {
	actions     [4]Action
	sent        model.Deployment
	actionsUsed bool
	sentUsed    bool
}

// writeMem returns m's write memory, allocating it the first time when m
// has none.
func (m *planMemory) writeMem() *writeMemory {
	if m.writes == nil {
		m.writes = new(writeMemory)
	}
	m.writes.used = true
	return m.writes
}

// growActions returns the plan's actions, full, moved to m's room for more
// writes when it has some left, else as they are (append then grows them).
func (m *planMemory) growActions(actions []Action) []Action {
	w := m.writes
	if w == nil || w.more == nil || w.more.actionsUsed || len(actions) >= len(w.more.actions) {
		return actions
	}
	w.more.actionsUsed = true
	return append(w.more.actions[:0], actions...)
}

// sentDeployment returns room for a Deployment a write sends: in m's write
// memory while it has some left, else a Deployment of its own.
func (m *planMemory) sentDeployment() *model.Deployment {
	w := m.writeMem()
	if w.nSent < len(w.sent) {
		w.nSent++
		return &w.sent[w.nSent-1]
	}
	if w.more != nil && !w.more.sentUsed {
		w.more.sentUsed = true
		return &w.more.sent
	}
	return new(model.Deployment)
}

// createWrites is a created ReplicaSet with room for the writes of the
// sync that creates it; firstWrites is that and the sync's write memory,
// for a create that is the sync's first write (as it usually is).
type (
	createWrites struct {
		created createdReplicaSet
		more    moreWrites
	}
	firstWrites struct {
		writes writeMemory
		createWrites
	}
)

// created returns room for a ReplicaSet the sync creates: with the room
// for the sync's further writes (moreWrites) when m has none yet, and
// with its write memory too when m has none (one allocation for all).
func (m *planMemory) created() *createdReplicaSet {
	switch {
	case m.writes == nil:
		b := new(firstWrites)
		b.writes.more = &b.more
		m.writes = &b.writes
		return &b.created
	case m.writes.more == nil:
		b := new(createWrites)
		m.writes.more = &b.more
		return &b.created
	default:
		return new(createdReplicaSet)
	}
}
