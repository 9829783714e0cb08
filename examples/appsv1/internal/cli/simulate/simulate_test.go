package simulate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// The exit codes of the shared table that simulate uses.
const (
	exitOK         = rolloutio.ExitOK
	exitFail       = rolloutio.ExitFail
	exitUsage      = rolloutio.ExitUsage
	exitStalled    = rolloutio.ExitStall
	exitViolations = rolloutio.ExitViolation
)

// runCmd runs simulate on a snapshot on standard input.
func runCmd(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	return clitest.Exec(t, NewCommand, clitest.Options{}, string(stdin), append([]string{"-f", "-"}, args...)...)
}

// recordedCompletion reads the recorded upstream scenario
// rolling-update-nginx-3 (one sync per second, pods available at once) and
// returns the time of the sync that first wrote Progressing
// NewReplicaSetAvailable for the new ReplicaSet after step `from`, and how
// many syncs after step `from` that was.
func recordedCompletion(t *testing.T, from int) (time.Time, int) {
	t.Helper()
	b, err := os.ReadFile("testdata/rolling-update-nginx-3.json")
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Steps []struct {
			Step int `json:"step"`
			Case struct {
				Now        time.Time `json:"now"`
				Deployment struct {
					Status struct {
						Conditions []struct {
							Type, Reason, Message string
						} `json:"conditions"`
					} `json:"status"`
				} `json:"deployment"`
			} `json:"case"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	for i := from + 1; i < len(sc.Steps); i++ {
		for _, c := range sc.Steps[i].Case.Deployment.Status.Conditions {
			// The state before step i shows what step i-1's sync wrote.
			if c.Type == "Progressing" && c.Reason == "NewReplicaSetAvailable" && strings.Contains(c.Message, "nginx-66b9cb6d4d") {
				return sc.Steps[i-1].Case.Now, i - 1 - from
			}
		}
	}
	t.Fatal("the recording never completes")
	return time.Time{}, 0
}

// Predicting from step 5 of the recorded upstream rollout (3 replicas,
// 25%/25%, new 1 / old 2) gives the recorded completion: the sync at
// 10:00:10, 4 syncs later; JSON and YAML input alike.
func TestPredictionMatchesTheRecording(t *testing.T) {
	list, err := os.ReadFile("testdata/nginx-mid.json")
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.JSONToYAML(list)
	if err != nil {
		t.Fatal(err)
	}
	at, syncs := recordedCompletion(t, 5)
	want := "prediction: the rollout completes in 4s (at " + at.UTC().Format(time.RFC3339) + "), after 4 syncs"
	if syncs != 4 {
		t.Fatalf("recording: %d syncs", syncs)
	}
	for _, in := range [][]byte{list, y} {
		code, stdout, stderr := runCmd(t, in, "--now", "2025-03-01T10:00:06Z")
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant %q", code, stderr, stdout, want)
		}
		// The recorded ScalingReplicaSet sequence after step 5: new→2,
		// old→1, new→3, old→0.
		for _, step := range []string{"new nginx-66b9cb6d4d 1→2", "old nginx-6c5f67b5f7 2→1", "new nginx-66b9cb6d4d 2→3", "old nginx-6c5f67b5f7 1→0"} {
			if !strings.Contains(stdout, step) {
				t.Errorf("timeline lacks %q", step)
			}
		}
	}
}

// Without --now a snapshot starts at the latest time it records, and says
// so; at count fidelity the same rollout completes too.
func TestDefaultClockAndCounts(t *testing.T) {
	list, _ := os.ReadFile("testdata/nginx-mid.json")
	code, stdout, stderr := runCmd(t, list, "--fidelity", "counts")
	if code != exitOK || !strings.Contains(stdout, "at 2025-03-01T10:00:05Z") || !strings.Contains(stdout, "prediction: the rollout completes") ||
		stderr != "Time: 2025-03-01T10:00:05Z (the latest timestamp in the snapshot; --now sets another)\n" {
		t.Errorf("exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}

// Pods of the new template that never become ready: the prediction is a
// stall at the progress deadline, exit 3, and the chart is written.
func TestPredictedStall(t *testing.T) {
	list, _ := os.ReadFile("testdata/nginx-mid.json")
	svg := filepath.Join(t.TempDir(), "c.svg")
	code, stdout, _ := runCmd(t, list, "--never-ready", "--svg", svg)
	if code != exitStalled || !strings.Contains(stdout, "prediction: the rollout stalls after") || !strings.Contains(stdout, "ProgressDeadlineExceeded") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("chart: %v", err)
	}
}

func TestFlags(t *testing.T) {
	code, stdout, _ := runCmd(t, nil, "-h")
	if code != exitOK || !strings.Contains(stdout, "--ready-after") || !strings.Contains(stdout, "Exit codes") {
		t.Errorf("-h: exit %d, %q", code, stdout)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--ready-after", "-1s"}, "--ready-after -1s: out of range 0s to 8760h"},
		{[]string{"--grace", "10000h"}, "--grace 10000h0m0s: out of range 0s to 8760h"},
		{[]string{"--fidelity", "x"}, `--fidelity "x": want pods or counts`},
		{[]string{"--max-input", "0"}, "--max-input 0: out of range"},
		{[]string{"--max-work", "0"}, "--max-work 0: out of range"},
		{[]string{"--now", "soon"}, `--now "soon": not an RFC 3339 time`},
		// The previous command line's single-dash flags are refused, not
		// read as -n ow.
		{[]string{"-now", "2025-03-01T10:00:06Z"}, "flag -now: a long flag takes two dashes, --now"},
		{[]string{"-o", "table"}, `--output "table": want json or yaml`},
		{[]string{"a", "b", "c"}, `too many arguments`},
		{[]string{"pod/x"}, `argument "pod/x": only deployments, statefulsets and daemonsets are supported`},
	} {
		code, _, stderr := runCmd(t, nil, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
	// Unreadable input is an error (1), as in every subcommand.
	code, _, stderr := runCmd(t, []byte(`{"kind":"List","items":[`))
	if code != exitFail || !strings.Contains(stderr, "JSON syntax error at byte 24 (line 1, column 25)") {
		t.Errorf("truncated input: exit %d, stderr %q", code, stderr)
	}
}
