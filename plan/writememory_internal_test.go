package plan

import (
	"testing"
	"unsafe"
)

// TestCreateRoomHoldsTheCreatesWrites: on every conformance state whose
// sync creates a ReplicaSet, under Sync's configuration and a Planner's,
// the plan's third and fourth actions and its second Deployment write
// live in the room that came with the created ReplicaSet, and the
// created ReplicaSet is its room's.
func TestCreateRoomHoldsTheCreatesWrites(t *testing.T) {
	planner := NewPlanner().cfg
	creates, moved, sent := 0, 0, 0
	for _, cfg := range []config{newConfig(nil), planner} {
		for i, s := range readConformanceStatesFile(t) {
			sy := newSyncer(s, cfg)
			sy.syncDeployment()
			if sy.hasherErr != nil {
				t.Fatal(sy.hasherErr)
			}
			p := sy.finish()
			if len(p.Actions) == 0 || p.Actions[0].Kind != CreateReplicaSet {
				continue
			}
			creates++
			more := sy.mem.writes.more
			if more == nil {
				t.Fatalf("state %d: a create sync without room for more writes", i)
			}
			if rs := p.Actions[0].ReplicaSet; uintptr(unsafe.Pointer(rs)) != uintptr(unsafe.Pointer(more))-unsafe.Offsetof(createWrites{}.more) {
				t.Errorf("state %d: the created ReplicaSet is not its room's", i)
			}
			if n := len(p.Actions); n > 2 && n <= len(more.actions) {
				if &p.Actions[0] != &more.actions[0] {
					t.Errorf("state %d: %d actions outside the create's room", i, n)
				}
				moved++
			}
			var deployments []*Action
			for j := range p.Actions {
				if p.Actions[j].Deployment != nil {
					deployments = append(deployments, &p.Actions[j])
				}
			}
			if len(deployments) > 1 {
				if deployments[1].Deployment != &more.sent {
					t.Errorf("state %d: the second Deployment write sends a Deployment outside the create's room", i)
				}
				sent++
			}
		}
	}
	if creates == 0 || moved == 0 || sent == 0 {
		t.Fatalf("%d create syncs, %d with their actions in the room, %d with a second Deployment write: all must occur", creates, moved, sent)
	}
}

// TestWriteRoomIsUsedOnce: the room for more writes takes the actions
// once, and a list past it grows on its own; Deployments sent come from
// the write memory, then the room, then their own allocations, each
// distinct; a ReplicaSet not to be created comes without room.
func TestWriteRoomIsUsedOnce(t *testing.T) {
	var m planMemory
	m.created(true)
	full := append(m.writeMem().actions[:0], Action{Name: "a"}, Action{Name: "b"})
	moved := m.growActions(full)
	if &moved[:1][0] != &m.writes.more.actions[0] || len(moved) != 2 || moved[1].Name != "b" {
		t.Fatal("the actions did not move to the room")
	}
	moved = append(moved, Action{Name: "c"}, Action{Name: "d"})
	if again := m.growActions(moved); &again[0] != &moved[0] {
		t.Fatal("a list filling the room moved again")
	}
	other := append(m.writes.actions[:0:2], Action{Name: "x"}, Action{Name: "y"})
	if again := m.growActions(other); &again[0] != &other[0] {
		t.Fatal("the room was handed out twice")
	}
	a, b, c := m.sentDeployment(), m.sentDeployment(), m.sentDeployment()
	if a != &m.writes.sent[0] || b != &m.writes.more.sent || c == a || c == b {
		t.Fatal("Deployments sent do not come from the write memory, then the room, then their own")
	}
	if first, second := m.created(true), m.created(true); first == second {
		t.Fatal("two creates share a ReplicaSet")
	}
	// A ReplicaSet whose name is taken is not created: no room for the
	// create's writes.
	var taken planMemory
	if taken.created(false); taken.writes != nil {
		t.Fatal("room for writes made for a ReplicaSet that is not to be created")
	}
}

// TestWriteBlocksKeepTheirSizeClasses: the blocks a writing sync allocates
// stay within the allocator's size classes they were sized for (768 and
// 1 408 bytes): a field added past one costs every such sync the next
// class, and the room for a create's writes would no longer cost exactly
// what it saves.
func TestWriteBlocksKeepTheirSizeClasses(t *testing.T) {
	for _, c := range []struct {
		name      string
		size, max uintptr
	}{
		{"writeMemory", unsafe.Sizeof(writeMemory{}), 768},
		{"createWrites", unsafe.Sizeof(createWrites{}), 1408},
	} {
		if c.size > c.max {
			t.Errorf("%s is %d bytes, past its size class of %d", c.name, c.size, c.max)
		}
	}
}
