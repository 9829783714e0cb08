package controller

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// Options configure the controllers.
type Options struct {
	// Workers is how many keys a controller syncs at once (upstream's
	// --concurrent-deployment-syncs and --concurrent-replicaset-syncs, 5 by
	// default). 0 means 5.
	Workers int
	// Shadow prints the writes each sync would send to Out instead of
	// sending them, and records no events.
	Shadow bool
	// SendAll sends every write of a plan, also after the server rejected
	// one, to check the plan's conflict predictions (appsv1.ApplyOptions).
	// Upstream stops at the first rejected write; leave it off to behave
	// like upstream.
	SendAll bool
	// Out receives the shadow writes and the sync errors; nil discards them.
	Out io.Writer
	// Now is the controllers' clock; nil means time.Now.
	Now func() time.Time
	// Resync is the informers' resync period; 0 means none.
	Resync time.Duration
	// Gate, when set, is read-locked around every sync, so that whoever
	// holds its write lock knows no sync of these controllers is running
	// (tests use it to send writes without racing the controllers).
	Gate *sync.RWMutex
	// Syncer plans the Deployment syncs. A controller made without one
	// gets its own, as it sees one cluster through read-only informer
	// caches (the objects an appsv1.Syncer remembers by version); nil in a
	// direct SyncDeployment call plans with appsv1.Sync.
	Syncer *appsv1.Syncer
}

// ErrOptions is matched (errors.Is) by the error for invalid [Options].
var ErrOptions = errors.New("invalid controller options")

func (o Options) withDefaults() (Options, error) {
	if o.Workers == 0 {
		o.Workers = 5
	}
	if o.Workers < 1 || o.Workers > 64 {
		return o, fmt.Errorf("%w: Workers %d: want 1 to 64", ErrOptions, o.Workers)
	}
	if o.Resync < 0 {
		return o, fmt.Errorf("%w: Resync %s: want 0 or more", ErrOptions, o.Resync)
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o, nil
}

// Stats counts the writes a controller sent and how the server answered,
// against what the plans predicted.
type Stats struct {
	Syncs    int64 // syncs that planned
	Sent     int64 // writes sent
	Accepted int64 // writes the server accepted
	Conflict int64 // writes rejected with 409 Conflict
	Failed   int64 // writes rejected otherwise
	// PredictedConflicts counts the sent writes a plan flagged as conflicts;
	// ConfirmedConflicts those of them the server rejected with 409.
	PredictedConflicts int64
	ConfirmedConflicts int64
	// Matched counts the sent writes whose answer (accepted or 409) the plan
	// predicted; Mismatched the others (a stale informer cache or another
	// writer can make a write the plan expected to pass conflict).
	Matched    int64
	Mismatched int64
}

// stats is a Stats behind a mutex.
type stats struct {
	mu sync.Mutex
	s  Stats
}

func (s *stats) get() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.s
}

// addSync counts a sync (if it planned) and the writes of r it sent.
func (s *stats) addSync(planned bool, r appsv1.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if planned {
		s.s.Syncs++
	}
	s.s.AddWrites(r)
}
