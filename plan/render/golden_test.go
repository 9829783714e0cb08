package render_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/internal/conformancefile"
	"github.com/rolloutplan/rolloutplan/plan"
	"github.com/rolloutplan/rolloutplan/plan/plantest/gen"
	"github.com/rolloutplan/rolloutplan/plan/render"
)

// update rewrites the digests file from the current rendering:
//
//	go test ./plan/render/ -run TestWritesMatchRecordedDigests -update
//
// Run it only after a change meant to alter upstream's write requests (or the
// generators' states), and say why in the commit: the file records what the
// implementation before the typed plan sent, so every changed line is a
// request that is no longer upstream's.
var update = flag.Bool("update", false, "rewrite "+digestsFile+" from the current rendering")

// digestsFile holds, one line per state, "id opts digest": the SHA-256 of
// the JSON of the writes rendered from plan.Sync with the default options.
// It was derived from the record of the implementation whose actions were
// whole objects (its actions marshal to the same JSON as []render.Write),
// so it pins rendering byte for byte to what upstream sends, on the 200
// recorded states and 6 000 generated ones.
const digestsFile = "testdata/writes.sha256"

// conformanceStatesFile holds the 200 recorded states (see package
// internal/conformancefile).
const conformanceStatesFile = "../testdata/conformance-states.json.gz"

type goldenCase struct {
	id    string
	state func() plan.State
}

// goldenCases lists the states the digests cover: the recorded ones, then
// states drawn by the generators of plantest/gen from fixed seeds (Example
// draws the same state for a seed every time).
func goldenCases(t *testing.T) []goldenCase {
	t.Helper()
	recorded, err := conformancefile.Read[plan.State](conformanceStatesFile)
	require.NoError(t, err)
	require.Len(t, recorded, 200, "recorded states")
	var out []goldenCase
	for _, e := range recorded {
		out = append(out, goldenCase{"conformance/" + e.ID, func() plan.State { return e.State }})
	}
	gens := []struct {
		name  string
		seeds int
		draw  func(seed int) plan.State
	}{
		{"state20x5", 2500, func(seed int) plan.State { return gen.State(20, 5).Example(seed) }},
		{"state1000x12", 1500, func(seed int) plan.State { return gen.State(1000, 12).Example(seed) }},
		{"edge8", 2000, func(seed int) plan.State { return gen.EdgeState(8).Example(seed) }},
	}
	for _, g := range gens {
		for seed := range g.seeds {
			out = append(out, goldenCase{fmt.Sprintf("%s/seed=%d", g.name, seed), func() plan.State { return g.draw(seed) }})
		}
	}
	return out
}

// writesDigest plans s with the default options, renders the plan and
// returns the SHA-256 of the writes' JSON ("[]" when there are none). A
// sync that ends with a *plan.SyncError still renders the actions upstream
// carried out before; any other error fails: every state here is valid.
func writesDigest(s plan.State) (string, error) {
	p, err := plan.Sync(s)
	if se := (*plan.SyncError)(nil); err != nil && !errors.As(err, &se) {
		return "", fmt.Errorf("Sync: %w", err)
	}
	ws, err := render.Writes(s, p)
	if err != nil {
		return "", err
	}
	if ws == nil {
		ws = []render.Write{}
	}
	b, err := json.Marshal(ws)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func readDigests(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(digestsFile)
	require.NoError(t, err)
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		require.Len(t, f, 3, "%s:%d: want \"id opts digest\"", digestsFile, n)
		require.Equal(t, "default", f[1], "%s:%d: option set", digestsFile, n)
		_, dup := out[f[0]]
		require.False(t, dup, "%s:%d: %s listed twice", digestsFile, n, f[0])
		out[f[0]] = f[2]
	}
	require.NoError(t, sc.Err())
	return out
}

// TestWritesMatchRecordedDigests renders the plan of every recorded and
// generated state and compares the digest of its writes with the one the
// implementation before the typed plan produced: one differing line is a
// write request that is no longer byte for byte upstream's.
func TestWritesMatchRecordedDigests(t *testing.T) {
	cases := goldenCases(t)
	if *update {
		var buf bytes.Buffer
		for _, c := range cases {
			d, err := writesDigest(c.state())
			require.NoError(t, err, c.id)
			fmt.Fprintf(&buf, "%s default %s\n", c.id, d)
		}
		require.NoError(t, os.WriteFile(digestsFile, buf.Bytes(), 0o644))
		t.Logf("wrote %d digests to %s", len(cases), digestsFile)
		return
	}
	want := readDigests(t)
	require.Len(t, want, len(cases), "%s lists another set of states than the test plans; run with -update", digestsFile)
	differ := 0
	for _, c := range cases {
		wantDigest, ok := want[c.id]
		require.True(t, ok, "%s has no line for %s", digestsFile, c.id)
		got, err := writesDigest(c.state())
		require.NoError(t, err, c.id)
		if got != wantDigest {
			differ++
			if differ <= 5 {
				t.Errorf("%s: the writes' digest is %s, recorded %s", c.id, got, wantDigest)
			}
		}
	}
	assert.Zero(t, differ, "of %d states, %d render other writes than recorded", len(cases), differ)
	t.Logf("%d states compared, %d differ", len(cases), differ)
}
