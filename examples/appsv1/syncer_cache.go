package appsv1

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// convCache is the cache of conversions of the StatefulSet and DaemonSet
// Syncers, with the rules of [Syncer]'s: a conversion per object version
// (kind, UID, resourceVersion), objects without either not cached, and two
// generations (once the current one holds limit entries, a new one starts
// and the entries the previous one did not use again are dropped). It keeps
// one version per object, the last converted (an informer's cache holds
// one), under its kind and UID: a lookup hashes the UID alone and compares
// the resourceVersion. Its methods whose names end in Locked need mu held.
type convCache[V any] struct {
	mu        sync.Mutex
	cur, prev map[cacheKey]cacheSlot[V]
	limit     int // entries at which a new generation starts; 0: minSyncerMemory
}

// cacheKey names an object: its kind and UID.
type cacheKey struct {
	kind byte
	uid  types.UID
}

// cacheSlot is the conversion of version rv of an object.
type cacheSlot[V any] struct {
	rv string
	v  V
}

// getLocked returns the entry of the object version meta names and keeps
// it in the current generation.
func (c *convCache[V]) getLocked(kind byte, meta *metav1.ObjectMeta) (V, bool) {
	var zero V
	if meta.UID == "" || meta.ResourceVersion == "" {
		return zero, false
	}
	k := cacheKey{kind, meta.UID}
	if e, ok := c.cur[k]; ok {
		if e.rv == meta.ResourceVersion {
			return e.v, true
		}
		return zero, false
	}
	e, ok := c.prev[k]
	if !ok || e.rv != meta.ResourceVersion {
		return zero, false
	}
	delete(c.prev, k)
	c.putLocked(k, e)
	return e.v, true
}

// add stores new entries; n is the number of objects of the call, which
// raises the limit to four times the largest call's.
func (c *convCache[V]) add(added []cacheAdd[V], n int) {
	if len(added) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = max(c.limit, minSyncerMemory, 4*n)
	for _, a := range added {
		if e, ok := c.cur[a.k]; !ok || e.rv != a.v.rv { // another call may have converted it meanwhile
			delete(c.prev, a.k)
			c.putLocked(a.k, a.v)
		}
	}
}

func (c *convCache[V]) putLocked(k cacheKey, v cacheSlot[V]) {
	if c.limit == 0 {
		c.limit = minSyncerMemory
	}
	if _, ok := c.cur[k]; !ok && len(c.cur) >= c.limit {
		c.prev, c.cur = c.cur, nil
	}
	if c.cur == nil {
		c.cur = make(map[cacheKey]cacheSlot[V])
	}
	c.cur[k] = v
}

// cacheAdd is an entry to store under k.
type cacheAdd[V any] struct {
	k cacheKey
	v cacheSlot[V]
}

// adder collects the conversions of one call for convCache.add.
type adder[V any] []cacheAdd[V]

// note records v under the version meta names, if it has one.
func (a *adder[V]) note(kind byte, meta *metav1.ObjectMeta, v V) {
	if meta.UID != "" && meta.ResourceVersion != "" {
		*a = append(*a, cacheAdd[V]{cacheKey{kind, meta.UID}, cacheSlot[V]{meta.ResourceVersion, v}})
	}
}
