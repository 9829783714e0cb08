package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/tools/cache"
)

// versionedStore is an informer store at a given resourceVersion.
type versionedStore struct {
	cache.Store
	rv string
}

func (s *versionedStore) LastStoreSyncResourceVersion() string { return s.rv }

// The barrier holds a set's sync back until every cache it wrote to has
// caught up with its last write there (upstream's consistency store under
// the StaleControllerConsistencyStatefulSet gate), and then forgets it.
func TestWriteBarrier(t *testing.T) {
	pods := &versionedStore{rv: "100"}
	sets := &versionedStore{rv: "100"}
	b := newWriteBarrier(map[string]cache.Store{"pods": pods, "statefulsets": sets})
	require.NoError(t, b.ready("ns/web"), "nothing written yet")

	b.wrote("ns/web", "uid-1", "pods", "105")
	b.wrote("ns/web", "uid-1", "pods", "103") // older: the barrier keeps 105
	b.wrote("ns/web", "uid-1", "statefulsets", "106")
	err := b.ready("ns/web")
	var stale *errStaleCache
	require.ErrorAs(t, err, &stale)
	assert.NoError(t, b.ready("ns/other"), "another set is not held back")

	pods.rv = "104"
	sets.rv = "106"
	require.ErrorAs(t, b.ready("ns/web"), &stale)
	assert.Equal(t, "pods", stale.resource)
	assert.Equal(t, "105", stale.wrote)

	pods.rv = "105"
	assert.NoError(t, b.ready("ns/web"))
	pods.rv, sets.rv = "1", "1"
	assert.NoError(t, b.ready("ns/web"), "a barrier passed is forgotten")
}

// A set re-created under its name (another UID) starts afresh; a deleted
// set's barrier is dropped; a store that cannot tell its version (the
// AtomicFIFO gate off) and a write without a version hold nothing back.
func TestWriteBarrierResets(t *testing.T) {
	pods := &versionedStore{rv: "10"}
	b := newWriteBarrier(map[string]cache.Store{"pods": pods, "persistentvolumeclaims": &versionedStore{rv: ""}})
	b.wrote("ns/web", "uid-1", "pods", "50")
	b.wrote("ns/web", "uid-2", "pods", "20")
	var stale *errStaleCache
	require.ErrorAs(t, b.ready("ns/web"), &stale)
	assert.Equal(t, "20", stale.wrote, "the new set's write replaces the old set's")

	b.forget("ns/web")
	assert.NoError(t, b.ready("ns/web"))

	b.wrote("ns/web", "uid-2", "persistentvolumeclaims", "99")
	b.wrote("ns/web", "uid-2", "pods", "")
	assert.NoError(t, b.ready("ns/web"))
}
