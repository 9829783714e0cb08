package configrestarts

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-nope"}, 2, "flag provided but not defined"},
		{[]string{"-timestamp", "iso"}, 2, `-timestamp "iso": want stamp or rfc3339`},
		{[]string{"-compat", "no-retry,bogus"}, 2, `unknown shortfall "bogus"`},
		{[]string{"script.json"}, 2, "unexpected argument"},
	} {
		code, _, stderr := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
	// Help is asked for: it goes to stdout and exits 0.
	if code, stdout, stderr := run(t, "", "-h"); code != 0 || !strings.Contains(stdout, "usage:") || stderr != "" {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{`{`, "bad restart script"},
		{`{"events":[],"extra":1}`, `unknown field "extra"`},
		{`{"events":[{"at":0,"op":"jump"}]}`, `events[0].op "jump"`},
		{`{"events":[{"at":1,"op":"tick"},{"at":0,"op":"tick"}]}`, "non-decreasing"},
		{`{"events":[{"at":0,"op":"update","object":{"kind":"Pod","metadata":{"name":"p"}}}]}`, `object kind "Pod"`},
		{`{"events":[{"at":0,"op":"update","object":{"kind":"Secret","metadata":{"name":"s"},"data":{"k":"%%%"}}}]}`, "data.k"},
	} {
		code, out, stderr := run(t, tc.in)
		if code != 1 || out != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.in, code, out, stderr)
		}
	}
}

// The rule-1 scenario replayed: one restart patch at t=13, with the
// original's time.Stamp or with RFC 3339; a recorded .jsonl line works too.
func TestReplay(t *testing.T) {
	script, err := os.ReadFile("testdata/readme-rule1-restart.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in    string
		args  []string
		value string
	}{
		{string(script), nil, "Jan  1 00:00:13"},
		{string(script), []string{"-timestamp", "rfc3339", "-original-references", "-compat", "all"}, "2024-01-01T00:00:13Z"},
		{`{"script":` + string(script) + `,"trace":{}}`, []string{"-indent"}, "Jan  1 00:00:13"},
	} {
		code, out, stderr := run(t, tc.in, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		var tr struct {
			Steps []struct {
				I       int
				Patches []struct {
					Restart bool
					Body    json.RawMessage
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &tr); err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, st := range tr.Steps {
			for _, p := range st.Patches {
				found = append(found, string(p.Body))
			}
		}
		if len(found) != 1 || !strings.Contains(found[0], tc.value) {
			t.Errorf("%v: patches %v, want one with %q", tc.args, found, tc.value)
		}
	}
}
