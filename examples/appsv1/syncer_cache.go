package appsv1

import (
	"fmt"
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
func (c *convCache[V]) getLocked(kind byte, meta metav1.Object) (V, bool) {
	var zero V
	uid, rv := meta.GetUID(), meta.GetResourceVersion()
	if uid == "" || rv == "" {
		return zero, false
	}
	k := cacheKey{kind, uid}
	if e, ok := c.cur[k]; ok {
		if e.rv == rv {
			return e.v, true
		}
		return zero, false
	}
	e, ok := c.prev[k]
	if !ok || e.rv != rv {
		return zero, false
	}
	delete(c.prev, k)
	c.putLocked(k, e)
	return e.v, true
}

// getEachLocked sets into[i] to the cached entry of objs[i], where there is
// one (a nil object has none); into is as long as objs.
func getEachLocked[V any, T any, P interface {
	*T
	metav1.Object
}](c *convCache[V], kind byte, objs []P, into []V) {
	for i, o := range objs {
		if o != nil {
			into[i], _ = c.getLocked(kind, o)
		}
	}
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
func (a *adder[V]) note(kind byte, meta metav1.Object, v V) {
	if uid, rv := meta.GetUID(), meta.GetResourceVersion(); uid != "" && rv != "" {
		*a = append(*a, cacheAdd[V]{cacheKey{kind, uid}, cacheSlot[V]{rv, v}})
	}
}

// convertEach returns the models of objs, nil for none as the uncached
// conversions return: the cached entry's model (get) where cached[i] holds
// one, else convert's, noted in a under kind as the entry newEntry makes of
// it. An error names the object as field[i], as the uncached conversions do.
func convertEach[E any, O metav1.Object, M any](a *adder[*E], kind byte, field string, objs []O, cached []*E,
	convert func(O) (M, error), get func(*E) M, newEntry func(M) *E) ([]M, error) {
	if len(objs) == 0 {
		return nil, nil
	}
	out := make([]M, len(objs))
	for i, o := range objs {
		if e := cached[i]; e != nil {
			out[i] = get(e)
			continue
		}
		m, err := convert(o)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", field, i, err)
		}
		out[i] = m
		a.note(kind, o, newEntry(m))
	}
	return out, nil
}
