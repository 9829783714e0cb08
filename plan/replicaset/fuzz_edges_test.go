package replicaset

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The checked-in edge corpus of FuzzSync reaches a spec near 2147483647,
// many sibling ReplicaSets and pods of other namespaces.
func TestFuzzCorpusReachesTheEdges(t *testing.T) {
	files, err := filepath.Glob("testdata/fuzz/FuzzSync/edge-*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no edge corpus: %v", err)
	}
	var high, siblings, foreign bool
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[len(lines)-1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		w := fuzzWorld([]byte(s))
		if _, err := Sync(w.rs, w.pods, w.rss, w.now); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		high = high || w.rs.SpecReplicas() >= math.MaxInt32-1000
		siblings = siblings || len(w.rss) >= 50
		for _, p := range w.pods {
			foreign = foreign || p.Namespace != w.rs.Namespace
		}
	}
	if !high || !siblings || !foreign {
		t.Errorf("edge corpus reaches spec near the limit %v, 50+ ReplicaSets %v, other namespaces %v; want all", high, siblings, foreign)
	}
}
