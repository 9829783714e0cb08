package plan

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// TestTextIsAppendOnly: sentences written to a plan's text memory keep
// their text while later ones fill its first chunk and further chunks,
// including sentences longer than a chunk and empty ones; a nil memory
// gives each sentence a string of its own.
func TestTextIsAppendOnly(t *testing.T) {
	for _, name := range []string{"Planner", "Sync"} {
		var pool *sync.Pool
		if name == "Planner" {
			pool = new(sync.Pool)
		}
		m, _, _ := newMemory(pool, &model.Deployment{})
		first := cap(m.textChunk)
		var got, want []string
		for i := range 200 {
			// From 0 to 2.5 chunks long, so some sentences end exactly at
			// the end of a chunk and some need one of their own.
			s := strings.Repeat("é", i*i%(textChunkSize*5/4))
			got = append(got, m.sprintf("%d %s|", i, s))
			want = append(want, fmt.Sprintf("%d %s|", i, s))
			got = append(got, m.text(nil))
			want = append(want, "")
		}
		var none *planMemory
		got = append(got, none.sprintf("%s %d", "nil", 7))
		want = append(want, "nil 7")
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: sentence %d became %.40q…, was written as %.40q…", name, i, got[i], want[i])
			}
		}
		if first == 0 || !strings.HasPrefix(got[0], "0 |") {
			t.Errorf("%s: no first chunk in the plan's memory (cap %d)", name, first)
		}
	}
}

// TestTextInRoomAllocatesNothing: a sentence that fits in the current
// chunk costs no allocation (a nil memory's costs its string).
func TestTextInRoomAllocatesNothing(t *testing.T) {
	m := &planMemory{textChunk: make([]byte, 0, 1<<20)}
	name, n := "web-5d7", int32(12)
	if allocs := testing.AllocsPerRun(100, func() {
		sprintfSink = m.sprintf("old %s %d→%d: %q", name, n, int64(n)-1, name)
		sprintfSink = reason(ReasonScaleDownOld, nil, "old %s %d→%d", name, n, n-1).Message
	}); allocs != 0 {
		t.Errorf("formatting into the text memory allocates %v times, want 0", allocs)
	}
}

var memorySink any

// TestFirstTextChunksFillTheirSizeClass: the first chunk of a Planner's
// sync holds the text of a sync that writes nothing (about 200 bytes at
// most in the recorded states) and Sync's a typical sync's, and each makes
// its memory exactly fill the allocator's size class it is sized for (a
// change of the memory's layout or of the allocator shows here).
func TestFirstTextChunksFillTheirSizeClass(t *testing.T) {
	if plannerTextSize < 128 || syncTextSize < 256 {
		t.Errorf("first chunks of %d (Planner) and %d (Sync) bytes, want at least 128 and 256", plannerTextSize, syncTextSize)
	}
	for _, c := range []struct {
		name  string
		alloc func()
		want  uint64
	}{
		{"plannerMemory", func() { memorySink = new(plannerMemory) }, 1024},
		{"syncMemory", func() { memorySink = new(syncMemory) }, 2688},
	} {
		const n = 1000
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range n {
			c.alloc()
		}
		runtime.ReadMemStats(&after)
		if got := (after.TotalAlloc - before.TotalAlloc) / n; got != c.want {
			t.Errorf("a %s allocates %d bytes, want %d", c.name, got, c.want)
		}
	}
}
