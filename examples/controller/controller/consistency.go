package controller

import (
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

// writeBarrier keeps a StatefulSet or a DaemonSet from being synced again
// before the informer caches have seen the controller's own last writes for
// it, as the StaleControllerConsistency gates (StatefulSet and DaemonSet,
// beta, on by default in v1.36) make upstream's controllers do. Unlike a
// ReplicaSet, a StatefulSet names its pods, so a sync on a cache that still
// shows a pod the controller has just deleted would delete the same name
// again, and by then it may be the pod re-created at the new revision;
// upstream's DaemonSet controller holds its syncs back the same way.
//
// After each accepted write the controller reports (for a StatefulSet a
// create or update of a pod, a claim or the set's status; for a DaemonSet
// a pod create or update or the status), the barrier remembers the highest
// resourceVersion written per resource; a sync of the set waits (its key is
// requeued with rate limiting) until every one of those informers has
// applied that version. Deletes return no version, so, as upstream, they
// set no barrier.
type writeBarrier struct {
	stores map[string]cache.Store // by resource: pods, persistentvolumeclaims, statefulsets or daemonsets

	mu      sync.Mutex
	written map[string]*setWrites // by set key (namespace/name)
}

// setWrites are the versions written for one set (one UID: a set deleted
// and re-created under its name starts afresh).
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

// setToSync is the start of a StatefulSet or DaemonSet sync: the set key
// names, read with get from the informer cache once the barrier has let the
// sync through (else the barrier's error, on which the key is requeued rate
// limited). It returns no set and no error when there is nothing to sync: a
// malformed key, or a set gone from the cache, whose barrier is forgotten
// and gone called.
func setToSync[T any](key string, barrier *writeBarrier, get func(ns, name string) (*T, error), gone func()) (*T, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, nil
	}
	if err := barrier.ready(key); err != nil {
		return nil, err
	}
	set, err := get(ns, name)
	if apierrors.IsNotFound(err) {
		barrier.forget(key)
		if gone != nil {
			gone()
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return set, nil
}
