package plan

import "github.com/rolloutplan/rolloutplan/model"

// writeMemory is the part of a plan's memory that only a sync that writes
// (or records an event) uses: up to two actions and one event (the plan's
// slices start in these arrays and move out when they grow past them), and
// the Deployment its first Deployment write sends. A Planner's sync
// allocates it at its first write, so a sync that writes nothing, the
// steady state of a controller, allocates none of it; Sync's comes with
// the rest of the sync's memory (see syncMemory).
type writeMemory struct {
	actions [2]Action
	events  [1]Event
	sent    [1]model.Deployment
	nSent   int
}

// writeMem returns m's write memory, allocating it the first time when m
// has none.
func (m *planMemory) writeMem() *writeMemory {
	if m.writes == nil {
		m.writes = new(writeMemory)
	}
	return m.writes
}
