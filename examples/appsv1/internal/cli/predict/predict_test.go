package predict

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--ready-after", "8760h", "--grace", "0s", "--fidelity", "counts"}, ""},
		{[]string{"--ready-after", "-1s"}, "--ready-after -1s: out of range 0s to 8760h"},
		{[]string{"--grace", "8761h"}, "--grace 8761h0m0s: out of range 0s to 8760h"},
		{[]string{"--fidelity", "x"}, `--fidelity "x": want pods or counts`},
		{[]string{"--max-work", "0"}, "--max-work 0: out of range 1 to 9223372036854775807"},
	} {
		var w World
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		w.AddFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := w.Validate()
		if (tc.want == "") != (err == nil) || (err != nil && err.Error() != tc.want) {
			t.Errorf("%q: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// From step 5 of the recorded upstream scenario rolling-update-nginx-3 the
// recorded rollout completes 4 syncs later, at 10:00:10 (simulate's test
// checks the recording itself).
func TestRunAndVerdict(t *testing.T) {
	f, err := os.Open("../simulate/testdata/nginx-mid.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, _, err := input.Read(f, input.Options{}, input.Selector{Now: time.Date(2025, 3, 1, 10, 0, 6, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	w := World{Fidelity: "counts", MaxWork: DefaultMaxWork}
	p, err := Run(s, w)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	p.WriteHeader(&b)
	p.WriteVerdict(&b)
	// The three ready pods of the recording became ready as they were
	// created.
	want := "Deployment default/nginx at 2025-03-01T10:00:06Z: 3 replicas, RollingUpdate maxSurge 25% maxUnavailable 25%; pods ready 0s after creation (counts fidelity)\n" +
		"assuming pods become ready 0s after creation, the median of 3 pods seen\n" +
		"prediction: the rollout completes in 4s (at 2025-03-01T10:00:10Z), after 4 syncs\n"
	if b.String() != want || !p.Completed() || p.Violations() != 0 {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// A stated readiness delay reads nothing from the pods.
	w.ReadyAfterGiven = true
	p, err = Run(s, w)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	p.WriteHeader(&b)
	if want := strings.Replace(want, "assuming pods become ready 0s after creation, the median of 3 pods seen\n", "", 1); !strings.HasPrefix(want, b.String()) || p.Evidence != nil {
		t.Errorf("stated: got\n%s", b.String())
	}
	w.ReadyAfterGiven = false
	w.MaxWork = 1
	if _, err := Run(s, w); err == nil || !strings.Contains(err.Error(), "--max-work 1") {
		t.Errorf("work bound: %v", err)
	}
}
