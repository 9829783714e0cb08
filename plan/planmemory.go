package plan

import "github.com/rolloutplan/rolloutplan/model"

// planMemory holds, in one allocation, what most plans hold: up to three
// notes (a sync that writes nothing usually has three: the new ReplicaSet's
// size reached, complete, status unchanged; the plan's slices start in
// these arrays and move out when they grow past them), its status and
// reasons' values, where its text is written (see planMemory.text), and,
// for a sync that writes, its writes' memory; and, during the sync, where
// the working lists are (their scratch and the working copy are the sync's
// working area, see newMemory).
// Its arrays are sized for a typical sync: every byte allocated costs
// garbage collection time, used or not.
// Each array backs one slice only, so appending to one of the plan's slices
// never overwrites another. finish clears the working lists and the
// working copy, which may still point into the input: the plan keeps none
// of the input alive.
type planMemory struct {
	// writes holds the plan's first actions and events and the Deployment
	// its first Deployment write sends (see writeMemory): a sync that
	// writes nothing needs none.
	writes *writeMemory
	notes  [3]Reason
	// What the working copy's spec points to once it owns it is not here
	// (see newMemory): a Planner's syncs never need it. Nor is the scratch
	// of the working lists (see rsSlice), in the sync's working area.
	rs    *[rsScratch]*model.ReplicaSet
	nRS   int
	ints  [2][2]int32 // see statusInts
	nInts int
	// status is the first status the sync computes (Plan.Status).
	status  model.DeploymentStatus
	values  [12]Value // see valueSlice
	nValues int
	// conds holds the conditions of the first status the sync computes:
	// Available and Progressing, the usual two.
	conds     [2]model.DeploymentCondition
	condsUsed bool
	// textChunk is where the plan's sentences are being written (see
	// planMemory.text); its first chunk comes with the plan's memory (see
	// newMemory).
	textChunk []byte
}

// conditions returns room for the conditions of a computed status: m's,
// the first time.
func (m *planMemory) conditions() []model.DeploymentCondition {
	if m.condsUsed {
		return nil
	}
	m.condsUsed = true
	return m.conds[:0]
}

// vals returns the values of a reason, vs, in m's value memory.
func (m *planMemory) vals(vs ...Value) []Value {
	return append(m.valueSlice(len(vs)), vs...)
}

// valueSlice returns an empty list with room for n values of a reason, in
// m while it has room (a nil m has none). Like rsSlice's lists, it is
// capped at n.
func (m *planMemory) valueSlice(n int) []Value {
	if m == nil || m.nValues+n > len(m.values) {
		return make([]Value, 0, n)
	}
	out := m.values[m.nValues : m.nValues : m.nValues+n]
	m.nValues += n
	return out
}

// statusInts returns room for the values a computed status points to.
func (s *syncer) statusInts() *[2]int32 {
	if m := s.mem; m.nInts < len(m.ints) {
		m.nInts++
		return &m.ints[m.nInts-1]
	}
	return new([2]int32)
}
