package controller

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"k8s.io/client-go/tools/cache"
)

// lastSyncedVersion is what an informer's store says of its progress: the
// resourceVersion of the last list or watch event it applied (client-go's
// stores answer it with the AtomicFIFO gate, on by default in v0.36; ""
// otherwise).
type lastSyncedVersion interface {
	LastStoreSyncResourceVersion() string
}

// writeBarrier keeps a StatefulSet from being synced again before the
// informer caches have seen the controller's own last writes for it, as the
// StaleControllerConsistencyStatefulSet gate (beta, on by default in v1.36)
// makes upstream's controller do. Unlike a ReplicaSet, a StatefulSet names
// its pods, so a sync on a cache that still shows a pod the controller has
// just deleted would delete the same name again, and by then it may be the
// pod re-created at the new revision.
//
// After each accepted create or update of a pod, a claim or the set's
// status, the barrier remembers the highest resourceVersion written per
// resource; a sync of the set waits (its key is requeued with rate
// limiting) until every one of those informers has applied that version.
// Deletes return no version, so, as upstream, they set no barrier.
type writeBarrier struct {
	stores map[string]cache.Store // by resource: pods, persistentvolumeclaims, statefulsets

	mu      sync.Mutex
	written map[string]*setWrites // by StatefulSet key
}

// setWrites are the versions written for one StatefulSet (one UID: a set
// deleted and re-created under its name starts afresh).
type setWrites struct {
	uid      types.UID
	versions map[string]string // by resource
}

// errStaleCache is returned by writeBarrier.ready; the sync is retried.
type errStaleCache struct {
	resource, read, wrote string
}

func (e *errStaleCache) Error() string {
	return fmt.Sprintf("the %s cache is at resourceVersion %s, older than the controller's write at %s; waiting for it", e.resource, e.read, e.wrote)
}

func newWriteBarrier(stores map[string]cache.Store) *writeBarrier {
	return &writeBarrier{stores: stores, written: map[string]*setWrites{}}
}

// wrote records a write of resource at version rv for the set key (of UID
// uid).
func (b *writeBarrier) wrote(key string, uid types.UID, resource, rv string) {
	if rv == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.written[key]
	if w == nil || w.uid != uid {
		w = &setWrites{uid: uid, versions: map[string]string{}}
		b.written[key] = w
	}
	if old, ok := w.versions[resource]; ok {
		if c, err := resourceversion.CompareResourceVersion(old, rv); err == nil && c >= 0 {
			return
		}
	}
	w.versions[resource] = rv
}

// ready returns nil when every cache has seen the writes recorded for key
// (and then forgets them), or an *errStaleCache naming one that has not. A
// store that cannot tell its version, or versions that do not compare, do
// not hold the sync back.
func (b *writeBarrier) ready(key string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.written[key]
	if w == nil {
		return nil
	}
	for resource, wrote := range w.versions {
		st, ok := b.stores[resource].(lastSyncedVersion)
		if !ok {
			continue
		}
		read := st.LastStoreSyncResourceVersion()
		if read == "" {
			continue
		}
		if c, err := resourceversion.CompareResourceVersion(wrote, read); err == nil && c > 0 {
			return &errStaleCache{resource: resource, read: read, wrote: wrote}
		}
	}
	delete(b.written, key)
	return nil
}

// forget drops what was recorded for key (the set is gone).
func (b *writeBarrier) forget(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.written, key)
}
