package model

import (
	"fmt"
	"maps"
	"testing"
)

// TestDuplicatesHashedMatchesScan checks the hash-table search for repeated
// names and UIDs against the plain pairwise scan, on lists of 0 to 200 pods
// drawn from small alphabets so that names, namespaces and UIDs repeat
// (and an empty UID, which never counts, is common), with nil entries.
func TestDuplicatesHashedMatchesScan(t *testing.T) {
	meta := func(p *Pod) *ObjectMeta { return &p.ObjectMeta }
	x := uint64(1)
	next := func(n uint64) uint64 { // a fixed linear congruential sequence
		x = x*6364136223846793005 + 1442695040888963407
		return (x >> 33) % n
	}
	withDuplicates := 0
	for round := range 400 {
		n := int(next(201))
		alphabet := 1 + next(uint64(2*n+2))
		items := make([]*Pod, n)
		for i := range items {
			if next(10) == 0 {
				continue // nil
			}
			p := &Pod{}
			p.Namespace = fmt.Sprintf("ns%d", next(3))
			p.Name = fmt.Sprintf("p%d", next(alphabet))
			if u := next(alphabet + 1); u > 0 {
				p.UID = fmt.Sprintf("uid-%d", u)
			}
			items[i] = p
		}
		wantNames, wantUIDs := duplicatesScanned(items, meta)
		gotNames, gotUIDs := duplicatesHashed(items, meta)
		if !maps.Equal(gotNames, wantNames) || !maps.Equal(gotUIDs, wantUIDs) {
			t.Fatalf("round %d (%d items): hashed names %v uids %v, scanned names %v uids %v",
				round, n, gotNames, gotUIDs, wantNames, wantUIDs)
		}
		if len(wantNames) > 0 && len(wantUIDs) > 0 {
			withDuplicates++
		}
	}
	if withDuplicates < 100 {
		t.Fatalf("only %d of 400 lists repeat both a name and a UID: the generator tests too little", withDuplicates)
	}
}
