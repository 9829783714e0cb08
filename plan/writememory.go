package plan

import "github.com/rolloutplan/rolloutplan/model"

// writeMemory is the part of a plan's memory that only a sync that writes
// (or records an event) uses: up to two actions and one event (the plan's
// slices start in these arrays and move out when they grow past them), and
// the Deployment its first Deployment write sends. A Planner's sync
// allocates it at its first write, so a sync that writes nothing, the
// steady state of a controller, allocates none of it; Sync's comes with
// the rest of the sync's memory (see syncMemory).
//
// Allocating it with the plan's memory when the sync is likely to write
// (say, when the last sync wrote) saves an allocation but not the time it
// costs: every byte allocated costs garbage collection time, and a wrong
// guess costs the whole block (measured: 0.7 allocations fewer per sync of
// the conformance states, 50 bytes more, and more instructions in all).
type writeMemory struct {
	actions [2]Action
	events  [1]Event
	sent    [1]model.Deployment
	nSent   int
	// more, when set, is room for what a sync that creates a ReplicaSet
	// usually writes beyond the above (see moreWrites).
	more *moreWrites
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
// sync that creates it: exactly as many bytes as the ReplicaSet, the
// actions grown to four and a second Deployment allocated on their own
// (1 408), in one allocation instead of three. (With the sync's write
// memory too, when the create is its first write, it would be one
// allocation fewer but 128 bytes more: a larger size class.)
type createWrites struct {
	created createdReplicaSet
	more    moreWrites
}

// created returns room for a ReplicaSet the sync creates, with the room
// for the sync's further writes (moreWrites) when withRoom is set and m
// has none yet.
func (m *planMemory) created(withRoom bool) *createdReplicaSet {
	if !withRoom || m.writes != nil && m.writes.more != nil {
		return new(createdReplicaSet)
	}
	w := m.writeMem()
	b := new(createWrites)
	w.more = &b.more
	return &b.created
}
