package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/controller/internal/kubecluster"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMedian(t *testing.T) {
	assert.Equal(t, 0.0, median(nil))
	assert.Equal(t, 5.0, median([]float64{9, 5, 1}))
	assert.Equal(t, 4.0, median([]float64{9, 5, 3, 1}))
	xs := []float64{3, 1, 2}
	median(xs)
	assert.Equal(t, []float64{3, 1, 2}, xs, "the runs keep their order")
}

func TestStat(t *testing.T) {
	assert.Equal(t, "-", stat(nil, count))
	assert.Equal(t, "52", stat([]float64{52}, count))
	assert.Equal(t, "52", stat([]float64{52, 52, 52}, count))
	assert.Equal(t, "52 (51-53)", stat([]float64{53, 51, 52}, count))
	assert.Equal(t, "52.5 (51-54)", stat([]float64{54, 51, 52, 53}, count))
	assert.Equal(t, "1.03s (0.88s-1.06s)", stat([]float64{1.06, 0.88, 1.03}, seconds))
}

// runs builds results of the nginx scenario as the first full run of this
// command measured them (writes, 409s, times), with the sequences given.
func runs(ctl kubecluster.Controllers, total, conflicts []int, secs []float64, seqs ...string) []result {
	var out []result
	for i := range total {
		r := result{scenario: "nginx", controllers: ctl,
			writes:    writes{Total: total[i], Conflicts: conflicts[i], By: map[string]int{"create pods": 3, "update replicasets": total[i] - 3}},
			elapsed:   time.Duration(secs[i] * float64(time.Second)),
			cpu:       time.Duration(i+1) * 10 * time.Millisecond,
			sequences: map[string]string{"nginx": seqs[i%len(seqs)]},
		}
		out = append(out, r)
	}
	return out
}

const upstreamSeq = "0/3 1/3 1/2 2/2 2/1 3/1 3/0"

func TestPrintTable(t *testing.T) {
	results := append(
		runs(kubecluster.Upstream, []int{51, 53, 52}, []int{2, 3, 2}, []float64{0.88, 1.06, 1.03}, upstreamSeq),
		runs(kubecluster.Rolloutplan, []int{49, 47, 49}, []int{5, 3, 5}, []float64{5.87, 5.80, 6.09}, upstreamSeq)...)
	order := []kubecluster.Controllers{kubecluster.Upstream, kubecluster.Rolloutplan}
	gs := groups(results, []string{"nginx", "absent"}, order)
	require.Len(t, gs, 2)
	var b bytes.Buffer
	printTable(&b, gs)
	out := b.String()
	lines := strings.Split(out, "\n")
	assert.Regexp(t, `^scenario +controllers +runs +writes +409s +other errors +reads +time to complete +CPU \(rollout\) +CPU \(process\)$`, lines[0])
	assert.Regexp(t, `^nginx +upstream +3 +52 \(51-53\) +2 \(2-3\) +0 +0 +1\.03s \(0\.88s-1\.06s\) +0\.02s \(0\.01s-0\.03s\) +0\.00s$`, lines[1])
	assert.Regexp(t, `^nginx +rolloutplan +3 +49 \(47-49\) +5 \(3-5\) +0 +0 +5\.87s \(5\.80s-6\.09s\)`, lines[2])
	assert.Contains(t, out, "  nginx upstream: create pods 3, update replicasets 49\n")
	assert.Contains(t, out, "  nginx rolloutplan: create pods 3, update replicasets 46\n")
	assert.Contains(t, out, "  nginx: the same on both sides\n    [upstream 3, rolloutplan 3] "+upstreamSeq+"\n")
}

func TestSequencesCompared(t *testing.T) {
	order := []kubecluster.Controllers{kubecluster.Upstream, kubecluster.Rolloutplan}
	other := "0/3 1/3 1/2 2/2 2/1 3/1 3/0 3/0"
	// A run whose sequence differs is reported with how often each side saw it.
	results := append(
		runs(kubecluster.Upstream, []int{1, 1, 1}, []int{0, 0, 0}, []float64{1, 1, 1}, upstreamSeq),
		runs(kubecluster.Rolloutplan, []int{1, 1, 1}, []int{0, 0, 0}, []float64{1, 1, 1}, upstreamSeq, other)...)
	var b bytes.Buffer
	printTable(&b, groups(results, []string{"nginx"}, order))
	assert.Contains(t, b.String(), "  nginx: DIFFER: 1 distinct with upstream (0 not seen with rolloutplan), 2 with rolloutplan (1 not seen with upstream)\n"+
		"    [upstream 3, rolloutplan 2] "+upstreamSeq+"\n"+
		"    [upstream 0, rolloutplan 1] "+other+"\n")

	// Both sides seeing the same varying sequences is not a difference.
	results = append(
		runs(kubecluster.Upstream, []int{1, 1}, []int{0, 0}, []float64{1, 1}, upstreamSeq, other),
		runs(kubecluster.Rolloutplan, []int{1, 1}, []int{0, 0}, []float64{1, 1}, other, upstreamSeq)...)
	b.Reset()
	printTable(&b, groups(results, []string{"nginx"}, order))
	assert.Contains(t, b.String(), "  nginx: the same 2 distinct sequences on both sides")

	// One side only.
	b.Reset()
	printTable(&b, groups(results, []string{"nginx"}, []kubecluster.Controllers{kubecluster.Rolloutplan}))
	assert.Contains(t, b.String(), "  nginx: 2 distinct (one set of controllers ran)")
}

func TestSequenceLinesLimit(t *testing.T) {
	bySide := map[kubecluster.Controllers]map[string]int{kubecluster.Upstream: {"a": 3, "b": 2, "c": 1}}
	assert.Equal(t, []string{"[upstream 3] a", "[upstream 2] b", "... 1 more"},
		sequenceLines(bySide, []kubecluster.Controllers{kubecluster.Upstream}, 2))
}
