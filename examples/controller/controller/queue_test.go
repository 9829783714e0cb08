package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/util/workqueue"
)

// The queues' rate limiter has the shape of upstream's
// workqueue.DefaultControllerRateLimiter: per key, 5 ms doubling with
// each failure up to 1000 s; over all keys, a bucket of 100 retries
// refilled at 10 per second.
func TestControllerRateLimiter(t *testing.T) {
	l := controllerRateLimiter()
	for i := range 12 {
		assert.Equal(t, 5*time.Millisecond<<i, l.When("a"), "failure %d of one key", i+1)
	}
	for range 40 {
		l.When("a")
	}
	assert.Equal(t, 1000*time.Second, l.When("a"), "the per-key backoff is capped at 1000s")
	l.Forget("a")
	assert.Equal(t, 5*time.Millisecond, l.When("a"), "a forgotten key starts over")

	// The bucket: after the burst (53 tries of "a" above and 47 other
	// keys), every further first failure waits 100 ms more than the last.
	l = controllerRateLimiter()
	for i := range 100 {
		assert.LessOrEqual(t, l.When(fmt.Sprint("k", i)), 5*time.Millisecond, "key %d within the burst", i)
	}
	var last time.Duration
	for i := range 10 {
		d := l.When(fmt.Sprint("late", i))
		assert.Greater(t, d, last, "key %d after the burst", i)
		assert.InDelta(t, float64(time.Duration(i+1)*100*time.Millisecond), float64(d), float64(30*time.Millisecond), "key %d after the burst", i)
		last = d
	}
}

// A key whose sync keeps failing is retried with growing waits, not in a
// hot loop, and a success resets its backoff. Were the worker to requeue
// with Add instead of AddRateLimited, or forget the key after each
// failure, the waits would not grow.
func TestWorkerBacksOff(t *testing.T) {
	var mu sync.Mutex
	var calls []time.Time
	fail := 7
	w := newWorker("test", func(context.Context, string) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, time.Now())
		if len(calls) <= fail {
			return errors.New("refused")
		}
		return nil
	}, nil, 2, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.run(ctx)
	}()
	w.add("ns/a")
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(calls) == fail+1
	}, 10*time.Second, 5*time.Millisecond)
	// No more calls once it succeeded.
	time.Sleep(300 * time.Millisecond)
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, calls, fail+1)
	for i := 1; i < len(calls); i++ {
		want := 5 * time.Millisecond << (i - 1)
		assert.GreaterOrEqual(t, calls[i].Sub(calls[i-1]), want, "wait before retry %d", i)
	}
	assert.Equal(t, int64(fail), w.stats().Requeues)
	assert.Zero(t, w.queue.NumRequeues("ns/a"), "a success forgets the key's failures")
}

// A key that fails maxRetries+1 times is dropped (until its next event),
// as upstream's controllers drop it, and counted.
func TestWorkerDropsAfterMaxRetries(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	w := newLimitedWorker("test", func(context.Context, string) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return errors.New("refused")
	}, nil, 1, nil, nil, workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.run(ctx)
	}()
	w.add("ns/a")
	require.Eventually(t, func() bool { return w.stats().Dropped == 1 }, 10*time.Second, 5*time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, maxRetries+1, calls)
	s := w.stats()
	assert.Equal(t, int64(maxRetries), s.Requeues)
	assert.Equal(t, 1, s.MaxLen)
}
