package configrestarts

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/clitest"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/status"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

const tick = `{"at":0,"op":"tick"}`

// strictCases are scripts the decoder refuses and the message it gives
// (after "error: "), all exit 1. The first ones are those issue 24 found
// dropped without a word (a repeated "events" emptied the script, a
// repeated "op" turned an update into a tick, "Events" was read as
// "events", unknown wrapper keys were ignored, null, {} and
// {"script": null} gave an empty trace); the rest are the state reader's
// rules (input.strict: sigs.k8s.io/json's UnmarshalStrict, as the API
// server decodes) applied to the script's own fields.
var strictCases = []struct{ name, in, msg string }{
	{"repeated events", `{"events":[` + tick + `],"events":[]}`, "bad restart script: events: duplicate key"},
	{"repeated op", `{"events":[{"at":0,"op":"update","op":"tick"}]}`, "bad restart script: events[0].op: duplicate key"},
	{"repeated op, fourth event", `{"events":[` + tick + `,` + tick + `,` + tick + `,{"at":0,"op":"tick","op":"tick"}]}`, "bad restart script: events[3].op: duplicate key"},
	{"Events", `{"Events":[` + tick + `]}`, `bad restart script: Events: unknown field (did you mean "events"?)`},
	{"Op", `{"events":[{"at":0,"Op":"tick"}]}`, `bad restart script: events[0].Op: unknown field (did you mean "op"?)`},
	{"unknown wrapper key", `{"events":[` + tick + `],"extra":1}`, "bad restart script: extra: unknown field (the keys are name, comment, gracePeriodSeconds, echoDelaySeconds, ignoredErrors, events)"},
	{"unknown event key", `{"events":[{"at":0,"op":"tick","when":3}]}`, "bad restart script: events[0].when: unknown field (the keys are at, op, object, tombstone, replace, resource, error)"},
	{"unknown recorded-line key", `{"script":{"events":[` + tick + `]},"trace":{},"meta":1}`, "bad restart script: meta: unknown field (the keys are name, script, trace)"},
	{"unknown key in a recorded line's script", `{"script":{"events":[{"at":0,"op":"tick","x":1}]}}`, "bad restart script: script.events[0].x: unknown field (the keys are at, op, object, tombstone, replace, resource, error)"},
	{"null", `null`, `the script is null: give a restart script, {"events": [...]} (see --help for its format)`},
	{"empty object", `{}`, `the input is not a restart script: it has no "events" (see --help for the format)`},
	{"null script", `{"script": null}`, `bad restart script: script: null: a recorded line holds the script under "script"`},
	{"script not an object", `{"script": [1]}`, `bad restart script: script: a list, not an object`},
	{"empty events", `{"events": []}`, "bad restart script: events: empty: a script lists at least one event"},
	{"null events", `{"events": null}`, "bad restart script: events: null: a script lists at least one event"},
	{"null event", `{"events":[` + tick + `,null]}`, `bad restart script: events[1]: null: an event is an object such as {"at": 1, "op": "tick"}`},
	{"list", `[` + tick + `]`, `the script is a list, not an object: give a restart script, {"events": [...]} (see --help for its format)`},
	{"string at", `{"events":[` + tick + `,{"at":"1","op":"tick"}]}`, "bad restart script: events[1].at: want a number, not a string"},
	{"events not a list", `{"events":{"at":0}}`, "bad restart script: events: want a list, not an object"},
	{"trailing data", `{"events":[` + tick + `]} {}`, "bad restart script: JSON syntax error at byte 35 (line 1, column 35): invalid character '{' after top-level value"},
	{"null object", `{"events":[{"at":0,"op":"update","object":null}]}`, "bad restart script: events[0].object: want a ConfigMap, Secret, Deployment or StatefulSet object, not null"},
	{"repeated key in an object", `{"events":[{"at":0,"op":"update","object":{"kind":"ConfigMap","metadata":{"name":"a","name":"b"}}}]}`, "bad restart script: events[0].object.metadata.name: duplicate key"},
	{"object of a tick", `{"events":[{"at":0,"op":"tick","object":{}}]}`, `bad restart script: events[0].object: op "tick" does not read it (only update and delete read it)`},
	{"tombstone of an update", `{"events":[{"at":0,"op":"update","tombstone":true,"object":{"kind":"ConfigMap","metadata":{"name":"a"}}}]}`, `bad restart script: events[0].tombstone: op "update" does not read it (only delete read it)`},
	{"error of a kill", `{"events":[{"at":0,"op":"kill","error":"x"}]}`, `bad restart script: events[0].error: op "kill" does not read it (only failPatches read it)`},
	{"replay's own check, prefixed in a recorded line", `{"script":{"events":[{"at":1,"op":"tick"},{"at":0,"op":"tick"}]}}`, "bad restart script: script.events[1].at 0: want non-decreasing times from 0 to 1e9"},
	// The same in YAML.
	{"YAML repeated events", "events:\n- {at: 0, op: tick}\nevents: []\n", `bad restart script: YAML line 3: key "events": duplicate key`},
	{"YAML repeated op", "events:\n- {at: 0, op: tick}\n- at: 1\n  op: update\n  op: tick\n", `bad restart script: YAML line 5: key "op": duplicate key`},
	{"YAML Events", "Events:\n- {at: 0, op: tick}\n", `bad restart script: Events: unknown field (did you mean "events"?)`},
	{"YAML unknown wrapper key", "events:\n- {at: 0, op: tick}\nextra: 1\n", "bad restart script: extra: unknown field (the keys are name, comment, gracePeriodSeconds, echoDelaySeconds, ignoredErrors, events)"},
	{"YAML unknown event key", "events:\n- {at: 0, op: tick, when: 3}\n", "bad restart script: events[0].when: unknown field (the keys are at, op, object, tombstone, replace, resource, error)"},
	{"YAML null", "~\n", `the script is null: give a restart script, {"events": [...]} (see --help for its format)`},
	{"YAML empty mapping", "{}\n", `the input is not a restart script: it has no "events" (see --help for the format)`},
	{"YAML null script", "script: null\n", `bad restart script: script: null: a recorded line holds the script under "script"`},
	{"YAML empty events", "events: []\n", "bad restart script: events: empty: a script lists at least one event"},
	{"YAML null event", "events:\n- {at: 0, op: tick}\n- null\n", `bad restart script: events[1]: null: an event is an object such as {"at": 1, "op": "tick"}`},
	{"syntax error on line 2", "{\"events\": [\n  {\"at\": 0, \"op\": tick}]}", "bad restart script: JSON syntax error at byte 33 (line 2, column 20): invalid character 'i' in literal true (expecting 'r')"},
	// A manifest keeps its message.
	{"manifest", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n", `the input is a Kubernetes Deployment, not a restart script: a script lists edits in time, {"events": [{"at": 0, "op": "update", "object": {...the Deployment...}}, {"at": 5, "op": "tick"}, ...]} (see --help)`},
}

func TestStrictScript(t *testing.T) {
	for _, tc := range strictCases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := run(t, tc.in)
			assert.Equal(t, 1, code)
			assert.Empty(t, out)
			assert.Equal(t, "error: "+tc.msg+"\n", stderr)
		})
	}
}

// Every recorded script of the original controller (testdata/scripts)
// passes the strict decoder and decodes as replay.ParseScript decodes it.
func TestStrictAcceptsRecordedScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/scripts/*.json")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		got, err := parse(b)
		require.NoError(t, err, f)
		want, err := replay.ParseScript(b)
		require.NoError(t, err, f)
		require.Equal(t, want, got, f)
	}
}

// --max-input is the flag of the subcommands that read snapshots (status
// here): same usage, default and messages; the cap holds for a file and
// for standard input, a script of exactly the cap is read.
func TestMaxInput(t *testing.T) {
	mine := NewCommand(clitest.Env(t, clitest.Options{}, "", new(strings.Builder), new(strings.Builder))).Flags().Lookup("max-input")
	theirs := status.NewCommand(clitest.Env(t, clitest.Options{}, "", new(strings.Builder), new(strings.Builder))).Flags().Lookup("max-input")
	require.NotNil(t, mine)
	require.NotNil(t, theirs)
	assert.Equal(t, theirs.Usage, mine.Usage)
	assert.Equal(t, theirs.DefValue, mine.DefValue)
	assert.Equal(t, "67108864", mine.DefValue)

	script, err := os.ReadFile("testdata/readme-rule1-restart.json")
	require.NoError(t, err)
	script = bytes.TrimSpace(script)
	size := len(script)
	file := filepath.Join(t.TempDir(), "s.json")
	require.NoError(t, os.WriteFile(file, script, 0o600))
	itoa := strconv.Itoa

	clitest.Run(t, NewCommand, []clitest.Case{
		{Name: "zero", Args: []string{"-f", "-", "--max-input", "0"}, Code: 2,
			Stderr: "error: --max-input 0: out of range 1 to 9223372036854775806. See 'kubectl rolloutplan config-restarts --help'.\n"},
		{Name: "live", Args: []string{"--max-input", "10"}, Code: 2,
			Stderr: "error: --max-input applies to -f only. See 'kubectl rolloutplan config-restarts --help'.\n"},
		{Name: "stdin over", Args: []string{"-f", "-", "--max-input", itoa(size - 1)}, Stdin: string(script), Code: 1,
			Stderr: "error: input too large: more than " + itoa(size-1) + " bytes (the cap) (raise --max-input)\n"},
		{Name: "file over", Args: []string{"-f", file, "--max-input", itoa(size - 1)}, Code: 1,
			Stderr: "error: input too large: more than " + itoa(size-1) + " bytes (the cap) (raise --max-input)\n"},
		{Name: "stdin at the cap", Args: []string{"-f", "-", "--max-input", itoa(size)}, Stdin: string(script), Code: 0,
			StdoutContains: "1 restarts of 1 workloads"},
		{Name: "file at the cap", Args: []string{"-f", file, "--max-input", itoa(size)}, Code: 0,
			StdoutContains: "1 restarts of 1 workloads"},
		{Name: "blanks over the cap", Args: []string{"-f", "-", "--max-input", "100"}, Stdin: strings.Repeat(" \n", 1000), Code: 1,
			Stderr: "error: input too large: more than 100 bytes (the cap) (raise --max-input)\n"},
	})
}

// A reader that fails is reported as such; the cap error wraps
// input.ErrTooLarge, as the snapshot reader's does.
func TestReadScript(t *testing.T) {
	_, err := readScript(strings.NewReader("123456"), "-", 5)
	require.ErrorIs(t, err, input.ErrTooLarge)
	b, err := readScript(strings.NewReader("12345"), "-", 5)
	require.NoError(t, err)
	require.Equal(t, "12345", string(b))
	// Longer than a chunk, within the cap.
	long := strings.Repeat("x", 3<<20+7)
	b, err = readScript(strings.NewReader(long), "-", int64(len(long)))
	require.NoError(t, err)
	require.Equal(t, long, string(b))
	_, err = readScript(errReader{}, "-", 5)
	require.EqualError(t, err, "reading standard input: broken")
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken") }
