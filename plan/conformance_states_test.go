package plan

import (
	"slices"
	"sync"
	"testing"

	"github.com/rolloutplan/rolloutplan/internal/conformancefile"
)

// readConformanceStatesFile reads the 200 recorded conformance states of
// examples/appsv1 (kube-controller-manager v1.36.3 inputs) converted to
// model types; examples/appsv1's TestConformanceStatesFileCurrent
// regenerates the file and fails when it is stale. The file is decoded once
// per test binary; each caller gets its own list of the shared (read-only)
// states.
func readConformanceStatesFile(tb testing.TB) []State {
	tb.Helper()
	conformanceStates.once.Do(func() { conformanceStates.list, conformanceStates.err = decodeConformanceStates() })
	if conformanceStates.err != nil {
		tb.Fatal(conformanceStates.err)
	}
	return slices.Clone(conformanceStates.list)
}

var conformanceStates struct {
	once sync.Once
	list []State
	err  error
}

func decodeConformanceStates() ([]State, error) {
	cases, err := conformancefile.Read[State]("testdata/conformance-states.json.gz")
	if err != nil {
		return nil, err
	}
	out := make([]State, len(cases))
	for i, c := range cases {
		out[i] = c.State
	}
	return out, nil
}
