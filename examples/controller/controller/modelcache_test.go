package controller

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An object is converted once per resourceVersion; one without a UID or a
// version every time; a failed conversion is not kept; objects unused for
// a whole sweep period are forgotten.
func TestModelCache(t *testing.T) {
	var c modelCache[int]
	calls := 0
	conv := func(v int) func() (int, error) {
		return func() (int, error) { calls++; return v, nil }
	}
	for range 3 {
		v, err := c.get("a", "1", conv(10))
		require.NoError(t, err)
		assert.Equal(t, 10, v)
	}
	assert.Equal(t, 1, calls)
	v, _ := c.get("a", "2", conv(20))
	assert.Equal(t, 20, v)
	assert.Equal(t, 2, calls)
	c.get("", "1", conv(0))
	c.get("b", "", conv(0))
	assert.Equal(t, 4, calls)
	_, err := c.get("e", "1", func() (int, error) { return 0, errors.New("bad") })
	assert.Error(t, err)
	assert.Equal(t, 1, c.len())

	// "a" is used in every sweep period, "z" only in the first.
	c.get("z", "1", conv(1))
	for period := range 3 {
		c.get("a", "2", conv(20))
		for range sweepEvery {
			c.synced()
		}
		if period == 0 {
			assert.Equal(t, 2, c.len(), "both used in the first period")
		}
	}
	assert.Equal(t, 1, c.len(), "z forgotten")
	calls = 0
	c.get("a", "2", conv(20))
	assert.Equal(t, 0, calls, "a kept")
}
