package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// seedFile is the public conformance data of the apps/v1 module: 200 states
// and what kube-controller-manager v1.36.3 wrote in one sync of each.
const seedFile = "../appsv1/testdata/conformance/public-seed1.jsonl"

type seedCase struct {
	ID      string
	Case    appsv1.Case
	Unorder bool // the recorded write order depends on the API cache's listing order
	Expect  expectOutput
}

// expectOutput is the part of a recorded output the sanity checks compare.
type expectOutput struct {
	Actions []struct {
		Verb        string `json:"verb"`
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Name        string `json:"name"`
		Error       string `json:"error"`
	} `json:"actions"`
	Error string `json:"error"`
}

func loadCases(tb testing.TB) []seedCase {
	tb.Helper()
	f, err := os.Open(seedFile)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []seedCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l struct {
			Case   appsv1.Case  `json:"case"`
			Expect expectOutput `json:"expect"`
			Meta   struct {
				ID                    string `json:"id"`
				OrderNondeterministic bool   `json:"orderNondeterministic"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatal(err)
		}
		out = append(out, seedCase{ID: l.Meta.ID, Case: l.Case, Unorder: l.Meta.OrderNondeterministic, Expect: l.Expect})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) != 200 {
		tb.Fatalf("%s holds %d cases, want 200", seedFile, len(out))
	}
	return out
}
