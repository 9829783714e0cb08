package controller

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// modelCache keeps the model conversion of informer objects under their
// UID and resourceVersion, so that a sync converts only the objects that
// changed since the last one: the ReplicaSet controller plans over every
// pod and ReplicaSet of the namespace at each sync, and converting them
// all (a pod's spec through canonical JSON) made its cost grow with the
// namespace rather than with the change. The models are shared between
// syncs, which the planners allow: they never modify their inputs.
//
// It forgets an object unused during sweepEvery consecutive syncs, so it
// holds at most the objects of the last syncs.
type modelCache[T any] struct {
	mu      sync.Mutex
	entries map[types.UID]modelEntry[T]
	syncs   int // syncs since the last sweep
}

// checked is a conversion and whether it passed its model validation
// (model.ValidatePod, model.ValidateReplicaSet): validated once per
// version, as the conversion is made once.
type checked[T any] struct {
	m     T
	valid bool
}

type modelEntry[T any] struct {
	rv   string
	m    T
	used bool // used since the last sweep
}

// sweepEvery is how many syncs pass between two sweeps.
const sweepEvery = 1000

// get returns the model of the object (uid, rv), converting it when the
// cache holds none of that version. Objects without a UID or a
// resourceVersion are converted every time.
func (c *modelCache[T]) get(uid types.UID, rv string, convert func() (T, error)) (T, error) {
	if uid == "" || rv == "" {
		return convert()
	}
	c.mu.Lock()
	e, ok := c.entries[uid]
	if ok && e.rv == rv {
		if !e.used {
			e.used = true
			c.entries[uid] = e
		}
		c.mu.Unlock()
		return e.m, nil
	}
	c.mu.Unlock()
	m, err := convert()
	if err != nil {
		return m, err
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[types.UID]modelEntry[T]{}
	}
	c.entries[uid] = modelEntry[T]{rv: rv, m: m, used: true}
	c.mu.Unlock()
	return m, nil
}

// synced counts a sync and, every sweepEvery syncs, forgets the objects
// no sync used since the previous sweep.
func (c *modelCache[T]) synced() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.syncs++
	if c.syncs < sweepEvery {
		return
	}
	c.syncs = 0
	for uid, e := range c.entries {
		if !e.used {
			delete(c.entries, uid)
			continue
		}
		e.used = false
		c.entries[uid] = e
	}
}

// len is the number of objects held.
func (c *modelCache[T]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
