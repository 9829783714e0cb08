package plan_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/plan"
)

// readCorpusBytes reads the []byte value of a checked-in corpus file.
func readCorpusBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
		t.Fatalf("%s: not a one-value []byte corpus file", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

// The checked-in edge corpus of FuzzSyncBytes reaches what the fuzzer must
// start from: replicas near 2147483647, a percentage beyond int32, many
// ReplicaSets, ReplicaSets of other namespaces, and a write a server
// rejects as invalid.
func TestFuzzCorpusReachesTheEdges(t *testing.T) {
	files, err := filepath.Glob("testdata/fuzz/FuzzSyncBytes/edge-*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no edge corpus: %v", err)
	}
	var highReplicas, hugePercent, manySets, foreign, invalid bool
	for _, f := range files {
		s := stateFromBytes(readCorpusBytes(t, f))
		p, err := plan.Sync(s)
		if syncFailure(err) != nil {
			t.Fatalf("%s: %v", f, err)
		}
		highReplicas = highReplicas || s.Deployment.DesiredReplicas() >= math.MaxInt32-1000
		if ru := s.Deployment.Spec.Strategy.RollingUpdate; ru != nil && ru.MaxSurge != nil {
			if n, err := strconv.ParseInt(strings.TrimSuffix(ru.MaxSurge.StrVal, "%"), 10, 64); err == nil && n > math.MaxInt32-300 {
				hugePercent = true
			}
		}
		manySets = manySets || len(s.ReplicaSets) >= 50
		for _, n := range p.Notes {
			foreign = foreign || n.Code == plan.NoteOtherNamespace
		}
		for _, a := range p.Actions {
			invalid = invalid || a.Invalid != ""
		}
	}
	for what, ok := range map[string]bool{"replicas near the limit": highReplicas, "a huge percentage": hugePercent,
		"50 or more ReplicaSets": manySets, "another namespace": foreign, "an invalid write": invalid} {
		if !ok {
			t.Errorf("no edge seed reaches %s", what)
		}
	}
}
