package controller

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// maxRetries is how many times upstream's controllers retry a key with
// rate limiting before dropping it (until the next event).
const maxRetries = 15

// controllerRateLimiter is the rate limiter of every work queue, upstream's
// controllers' (workqueue.DefaultTypedControllerRateLimiter): a key that
// failed waits 5 ms, doubling with each further failure up to 1000 s, and
// all retries together are held to 10 per second after a burst of 100, so
// that a failing server is not hammered by a hot loop.
func controllerRateLimiter() workqueue.TypedRateLimiter[string] {
	return workqueue.DefaultTypedControllerRateLimiter[string]()
}

// QueueStats describes a work queue: its length now, the longest it has
// been, and how many keys were requeued after a failed sync (with
// backoff) or dropped after maxRetries failures.
type QueueStats struct {
	Name     string
	Len      int
	MaxLen   int
	Requeues int64
	Dropped  int64
}

// worker runs the sync of one kind of object over a rate-limited work
// queue, as upstream's controllers do: n goroutines, once the informer
// caches it reads have synced.
type worker struct {
	name   string
	queue  workqueue.TypedRateLimitingInterface[string]
	sync   func(ctx context.Context, key string) error
	synced []cache.InformerSynced
	n      int
	log    io.Writer
	logMu  sync.Mutex
	gate   *sync.RWMutex

	requeues, dropped atomic.Int64
	maxLen            atomic.Int64
}

func newWorker(name string, sync func(context.Context, string) error, synced []cache.InformerSynced, n int, log io.Writer, gate *sync.RWMutex) *worker {
	return newLimitedWorker(name, sync, synced, n, log, gate, controllerRateLimiter())
}

// newLimitedWorker is newWorker with another rate limiter (tests).
func newLimitedWorker(name string, sync func(context.Context, string) error, synced []cache.InformerSynced, n int, log io.Writer, gate *sync.RWMutex, limiter workqueue.TypedRateLimiter[string]) *worker {
	return &worker{
		name: name,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(limiter,
			workqueue.TypedRateLimitingQueueConfig[string]{Name: name}),
		sync:   sync,
		synced: synced,
		n:      n,
		log:    log,
		gate:   gate,
	}
}

func (w *worker) add(keys ...string) {
	for _, k := range keys {
		w.queue.Add(k)
	}
	w.noteLen()
}

// noteLen records the queue's length if it is the longest yet.
func (w *worker) noteLen() {
	n := int64(w.queue.Len())
	for {
		m := w.maxLen.Load()
		if n <= m || w.maxLen.CompareAndSwap(m, n) {
			return
		}
	}
}

func (w *worker) stats() QueueStats {
	return QueueStats{Name: w.name, Len: w.queue.Len(), MaxLen: int(w.maxLen.Load()), Requeues: w.requeues.Load(), Dropped: w.dropped.Load()}
}

// addObject queues the namespace/name key of an informer's object (or of
// a deleted object's tombstone); what has no key is dropped.
func (w *worker) addObject(obj any) {
	if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
		w.add(key)
	}
}

// objectHandlers queue the key of every object an informer adds, updates
// or deletes: the handlers of the objects a controller syncs, which it
// reads again from the cache.
func (w *worker) objectHandlers() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    w.addObject,
		UpdateFunc: func(_, cur any) { w.addObject(cur) },
		DeleteFunc: w.addObject,
	}
}

// run waits for the caches and syncs until ctx ends.
func (w *worker) run(ctx context.Context) {
	if !cache.WaitForCacheSync(ctx.Done(), w.synced...) {
		return
	}
	var wg sync.WaitGroup
	for range w.n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait.UntilWithContext(ctx, func(ctx context.Context) {
				for w.next(ctx) {
				}
			}, time.Second)
		}()
	}
	<-ctx.Done()
	w.queue.ShutDown()
	wg.Wait()
}

func (w *worker) next(ctx context.Context) bool {
	key, quit := w.queue.Get()
	if quit {
		return false
	}
	defer w.queue.Done(key)
	if w.gate != nil {
		w.gate.RLock()
		defer w.gate.RUnlock()
	}
	err := w.sync(ctx, key)
	switch {
	case err == nil:
		w.queue.Forget(key)
	case w.queue.NumRequeues(key) < maxRetries:
		w.logf("%s %s: %v (retrying)", w.name, key, err)
		w.requeues.Add(1)
		w.queue.AddRateLimited(key)
	default:
		w.logf("%s %s: %v (dropped after %d retries)", w.name, key, err, maxRetries)
		w.dropped.Add(1)
		w.queue.Forget(key)
	}
	return true
}

func (w *worker) logf(format string, args ...any) {
	if w.log == nil {
		return
	}
	w.logMu.Lock()
	defer w.logMu.Unlock()
	fmt.Fprintf(w.log, format+"\n", args...)
}
