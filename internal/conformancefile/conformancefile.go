// Package conformancefile decodes the recorded conformance states file
// (plan/testdata/conformance-states.json.gz: the inputs of
// kube-controller-manager v1.36.3 syncs converted to model types, which
// examples/appsv1 regenerates) for the tests and benchmarks that replay it.
//
// Start with [Read], giving it the type each entry's state decodes into:
// plan.State, or a struct of the model objects for a package below plan.
package conformancefile

import (
	"compress/gzip"
	"encoding/json"
	"os"
)

// Entry is one recorded state: its id and the state, decoded as S.
type Entry[S any] struct {
	ID    string `json:"id"`
	State S      `json:"state"`
}

// Read decodes the gzip-compressed JSON list of entries at path.
func Read[S any](path string) ([]Entry[S], error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var entries []Entry[S]
	if err := json.NewDecoder(r).Decode(&entries); err != nil {
		return nil, err
	}
	return entries, nil
}
