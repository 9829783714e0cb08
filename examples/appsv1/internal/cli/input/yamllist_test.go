package input

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

// wholeToJSON is the conversion BlockListToJSON stands in for: the whole
// document at once, checked as toJSON checks it.
func wholeToJSON(text []byte) ([]byte, error) {
	data, err := yaml.YAMLToJSONStrict(text)
	if err == nil {
		err = checkConversion(text, data)
	}
	return data, err
}

// Every YAML document of the recorded snapshots (rolloutio's testdata, the
// kubectl -o yaml output of live clusters) and of the reader's fuzz corpus
// converts an item at a time to the JSON the whole conversion makes, byte
// for byte; the Lists among them take that path.
func TestBlockListToJSONMatchesTheWholeConversion(t *testing.T) {
	var files []string
	for _, glob := range []string{"../rolloutio/testdata/*.yaml", "../simulate/testdata/*.yaml", "testdata/fuzz/FuzzReadObjects/*"} {
		m, err := filepath.Glob(glob)
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	lists := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		docs, err := splitYAML(data)
		if err != nil {
			continue
		}
		for _, doc := range docs {
			got, ok := BlockListToJSON(doc.text, "items")
			if !ok {
				continue
			}
			lists++
			want, err := wholeToJSON(doc.text)
			require.NoError(t, err, "%s: converted an item at a time, refused whole", f)
			require.Equal(t, string(want), string(got), f)
		}
	}
	assert.GreaterOrEqual(t, lists, 3, "the recorded Lists (rollout, web-statefulset, cilium-daemonset) convert an item at a time")
}

// Documents the item-at-a-time conversion must leave to the whole one, or
// convert as it does: text that spans the boundaries between entries
// (quoted scalars and flow collections, which the YAML parser lets go on
// at any indentation), anchors and aliases across entries, directives,
// and shapes that are not a block sequence under the key.
func TestBlockListToJSONLeavesWhatItCannotSplit(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		split      bool // converted an item at a time
	}{
		{"kubectl List", "apiVersion: v1\nitems:\n- a: 1\n- b: [1, 2]\n  c: |\n    x\n    - y\nkind: List\n", true},
		{"indented entries", "items:\n  - a: 1\n  # c\n  - b\nkind: List\n", true},
		{"comment before the first entry", "items:\n# c\n\n- a\n", true},
		{"empty entry", "items:\n-\n  a: 1\n- \n", true},
		{"quote across entries", "items:\n- a: \"x\n- b\"\n", false},
		{"single quote across entries", "items:\n- a: 'x\n- b'\n", false},
		{"flow across entries", "items:\n- a: [1,\n- 2]\n", false},
		{"quote from the prefix closed after the list", "a: \"x\nitems:\n- y\n\"\nitems: null\n", false},
		{"quote from the prefix", "a: \"x\nitems:\n- y\nb: \"\n", false},
		// Entries are converted in groups: within one, as in the whole.
		{"alias to another entry of its group", "items:\n- &x {a: 1}\n- *x\n", true},
		{"alias to another group", "items:\n- &x {a: 1}\n- b: " + strings.Repeat("x", partSize) + "\n- *x\n", false},
		{"alias after the list to an anchor redefined in it", "a: &x 1\nitems:\n- &x 2\nb: *x\n", false},
		{"directive", "%YAML 1.1\n---\nitems:\n- a\n", false},
		{"flow sequence", "items: [a, b]\n", false},
		{"no entries", "items:\nkind: List\n", false},
		{"mapping under the key", "items:\n  a: 1\n", false},
		{"duplicate key", "items:\n- a: 1\n  a: 2\n", false},
		{"duplicate list key", "items:\n- a\nitems:\n- b\n", false},
		{"root scalar", "foo\nitems:\n- a\n", false},
		{"tab", "items:\n- a: \"x\n\t- b\"\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := BlockListToJSON([]byte(tc.text), "items")
			assert.Equal(t, tc.split, ok)
			if ok {
				want, err := wholeToJSON([]byte(tc.text))
				require.NoError(t, err)
				assert.Equal(t, string(want), string(got))
			}
		})
	}
}

// Random documents made of lines that open and close what spans lines
// (quotes, flows, block scalars, anchors, comments, entries at several
// indentations) around an "items:" key, converted in groups of any size:
// whenever the item-at-a-time conversion takes one, the whole conversion
// accepts it and makes the same JSON.
func TestBlockListToJSONProperty(t *testing.T) {
	outside := []string{"apiVersion: v1", "kind: List", "metadata: {}", "a: \"x", "b: 'y", "c: [1,", "2]", "\"", "'",
		"n: &x 1", "o: *x", "items: null", "items:", "# c", "", "s: \"x\" # y", "- stray", "%YAML 1.1", "... "}
	entry := []string{"- a: 1", "- b", "-", "  - c", "  d: x", "- e: \"x", "f\"", "- g: 'y", "h'", "\"", "- i: [1,", "2]",
		"  j: {k: 1,", "l: 2}", "- &x m", "- *x", "  y: *x", "# c", "", "- p: |", "    q \"", "  r", "- 's: t'", "  - u: \"v",
		"- ? z", "  : w", "- !!str 1", "-  - nested", "  - &x n", "\tt", "- \"q\": 1", "  - [a,", "  b]"}
	split := 0
	rapid.Check(t, func(t *rapid.T) {
		var lines []string
		lines = append(lines, rapid.SliceOfN(rapid.SampledFrom(outside), 0, 3).Draw(t, "prefix")...)
		lines = append(lines, "items:")
		lines = append(lines, rapid.SliceOfN(rapid.SampledFrom(entry), 1, 12).Draw(t, "entries")...)
		lines = append(lines, rapid.SliceOfN(rapid.SampledFrom(outside), 0, 3).Draw(t, "suffix")...)
		text := []byte(strings.Join(lines, "\n") + "\n")
		// Groups of one entry up to all of them.
		got, ok := blockListToJSON(text, "items", rapid.IntRange(1, 64).Draw(t, "partSize"), 0)
		if !ok {
			return
		}
		split++
		want, err := wholeToJSON(text)
		if err != nil {
			t.Fatalf("%q: converted an item at a time to %s, refused whole: %v", text, got, err)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("%q: item at a time %s, whole %s", text, got, want)
		}
	})
	// How many random documents the item-at-a-time conversion took varies
	// with the seed (a rare seed draws none); that it takes documents at
	// all is TestBlockListToJSONLeavesWhatItCannotSplit's to check.
	t.Logf("%d documents converted an item at a time", split)
}
