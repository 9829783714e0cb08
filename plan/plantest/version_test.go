package plantest

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// Every version handed out is strconv.FormatInt's string, in order (across
// the widths 1 to 6 and the batch boundaries) and in any order.
func TestVersionBatchFormatsLikeFormatInt(t *testing.T) {
	var b versionBatch
	for v := int64(-3); v <= 200_000; v++ {
		if got, want := b.format(v), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("format(%d) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []int64{999_999_999, 1e9, 1e18 - 1, 1e18, 1<<63 - 1, 5, 1e17 + 3} {
		if got, want := b.format(v), strconv.FormatInt(v, 10); got != want {
			t.Fatalf("format(%d) = %q, want %q", v, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		var b versionBatch
		for _, v := range rapid.SliceOf(rapid.Int64()).Draw(t, "versions") {
			if got, want := b.format(v), strconv.FormatInt(v, 10); got != want {
				t.Fatalf("format(%d) = %q, want %q", v, got, want)
			}
		}
	})
}

// A Cluster hands out consecutive versions; a copy of it goes on from where
// it was copied, and neither sees the other's versions.
func TestNextResourceVersionOfCopies(t *testing.T) {
	var c Cluster
	for want := 1; want <= 300; want++ {
		if got := c.NextResourceVersion(); got != strconv.Itoa(want) {
			t.Fatalf("version %d: got %q", want, got)
		}
	}
	d := c
	if got := d.NextResourceVersion(); got != "301" {
		t.Fatalf("copy: got %q, want 301", got)
	}
	if got := c.NextResourceVersion(); got != "301" {
		t.Fatalf("original: got %q, want 301", got)
	}
}

func BenchmarkNextResourceVersion(b *testing.B) {
	b.ReportAllocs()
	var c Cluster
	for b.Loop() {
		_ = c.NextResourceVersion()
	}
}
