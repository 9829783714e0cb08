package rolloutio

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		name    string
		wantErr string
	}{
		{nil, "", ""},
		{[]string{"web"}, "web", ""},
		{[]string{"deployment/web"}, "web", ""},
		{[]string{"deploy/web"}, "web", ""},
		{[]string{"deployments.apps/web"}, "web", ""},
		{[]string{"deployment", "web"}, "web", ""},
		{[]string{"pod/web"}, "", `argument "pod/web": only deployments are supported`},
		{[]string{"deployment/"}, "", "the name is empty"},
		{[]string{"pods", "web"}, "", `argument "pods": only deployments`},
		{[]string{"a", "b", "c"}, "", "too many arguments"},
	} {
		var tg Target
		err := tg.ParseArgs(tc.args)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseArgs(%q) = %v, want an error with %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil || tg.Name != tc.name {
			t.Errorf("ParseArgs(%q) = %q, %v; want %q", tc.args, tg.Name, err, tc.name)
		}
	}
}

func TestParseFlagsInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var stdout, stderr strings.Builder
	fs.SetOutput(&stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), "usage of x") }
	rev := fs.Int64("revision", 0, "")
	pos, code, stop := ParseFlags(fs, []string{"deployment/web", "--revision=2", "extra"}, &stdout)
	if stop || code != 0 || *rev != 2 || strings.Join(pos, ",") != "deployment/web,extra" {
		t.Errorf("got %q %d %v revision %d", pos, code, stop, *rev)
	}
	if _, code, stop := ParseFlags(fs, []string{"-h"}, &stdout); !stop || code != 0 || stdout.String() != "usage of x" || stderr.Len() != 0 {
		t.Errorf("-h: %d %v, stdout %q, stderr %q; want 0 true, the usage on stdout", code, stop, stdout.String(), stderr.String())
	}
	stdout.Reset()
	if _, code, stop := ParseFlags(fs, []string{"--nope"}, &stdout); !stop || code != 2 || stdout.Len() != 0 ||
		stderr.String() != "flag provided but not defined: -nope\nusage of x" {
		t.Errorf("--nope: %d %v, stdout %q, stderr %q; want 2 true, the error and usage on stderr", code, stop, stdout.String(), stderr.String())
	}
}

// The rollout subcommands read through package input: JSON or YAML,
// strict, errors naming items[i] and the object, the cap enforced.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		max      int64
	}{
		{in: "", want: "empty input"},
		{in: "kind: List", want: "no such deployment: the input has no Deployment"},
		{in: `{"kind":"List","items":[]}`, want: "no such deployment"},
		{in: `{"kind":"PodList","items":[{"kind":"Pod"}]}`, want: "no such deployment"},
		{in: `{"kind":"List","items":[`, want: "JSON syntax error at byte 24 (line 1, column 25)"},
		{in: `{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"shop"},"spec":{"replica":3}}]}`,
			want: `items[0] (Deployment shop/web): unknown field "spec.replica"`},
		{in: "kind: List\nitems:\n- kind: Deployment\n  apiVersion: apps/v1\n  metadata: {name: web, name: web}\n", want: `"name" already set in map`},
		{in: `{"kind":"List","items":[]}`, max: 10, want: "input too large: more than 10 bytes (the cap) (raise --max-input)"},
		{in: `{"kind":"Deployment","apiVersion":"apps/v1"}`, want: "the input is a single Deployment"},
	} {
		tg := Target{MaxInput: tc.max}
		var stderr strings.Builder
		if _, err := tg.Read(strings.NewReader(tc.in), &stderr, "status", time.Time{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Objects the subcommand does not use are reported with their counts on
// standard error, never dropped silently; without a clock the state's
// latest recorded time is used.
func TestReadReportsIgnored(t *testing.T) {
	const list = `kind: List
apiVersion: v1
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop, creationTimestamp: "2025-03-01T10:00:00Z"}
  spec:
    selector: {matchLabels: {app: web}}
    template: {metadata: {labels: {app: web}}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: db, namespace: other}
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: other}
`
	tg := Target{Name: "web"}
	var stderr strings.Builder
	s, err := tg.Read(strings.NewReader(list), &stderr, "history", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Deployment.Name != "web" || !s.Apps.Now.Equal(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("read %q at %v", s.Deployment.Name, s.Apps.Now)
	}
	want := "history: ignored 3 input objects: 1 Service (v1) (not an apps/v1 Deployment or ReplicaSet or a v1 Pod), " +
		"1 Deployment in namespace other (not the Deployment planned), 1 Pod in namespace other (other namespace)\n"
	if stderr.String() != want {
		t.Errorf("stderr\n%q\nwant\n%q", stderr.String(), want)
	}
}

func TestParseDeployment(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		flag      string
		name, err string
	}{
		{nil, "", "", ""},
		{nil, "web", "web", ""},
		{[]string{"deployment/web"}, "", "web", ""},
		{[]string{"web"}, "web", "web", ""},
		{[]string{"web"}, "api", "", `-deployment "api" and argument "web" name different Deployments`},
		{[]string{"svc/web"}, "", "", `only deployments are supported`},
	} {
		var tg Target
		err := tg.ParseDeployment(tc.args, tc.flag)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseDeployment(%q, %q) = %v, want %q", tc.args, tc.flag, err, tc.err)
			}
			continue
		}
		if err != nil || tg.Name != tc.name {
			t.Errorf("ParseDeployment(%q, %q) = %q, %v; want %q", tc.args, tc.flag, tg.Name, err, tc.name)
		}
	}
}

// A value out of range is reported as a bad flag is: the error naming the
// flag and its range, then the usage, on standard error; exit 2.
func TestBadFlag(t *testing.T) {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	var stderr strings.Builder
	fs.SetOutput(&stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), "usage of status\n") }
	tg := Target{}
	tg.AddFlags(fs)
	if _, _, stop := ParseFlags(fs, []string{"--max-input=0"}, io.Discard); stop {
		t.Fatal("parse stopped")
	}
	if code := BadFlag(fs, tg.Validate()); code != 2 ||
		stderr.String() != "kubectl-rolloutplan status: -max-input 0: out of range 1 to 9223372036854775806\nusage of status\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if CommandName("rolloutplan-next") != "rolloutplan-next" {
		t.Error("CommandName renamed a command")
	}
}

func TestFailAndNow(t *testing.T) {
	var b strings.Builder
	if Fail(&b, errors.New("error: x")) != 1 || b.String() != "error: x\n" {
		t.Errorf("Fail kept prefix: %q", b.String())
	}
	b.Reset()
	if Fail(&b, errors.New("x")) != 1 || b.String() != "error: x\n" {
		t.Errorf("Fail added prefix: %q", b.String())
	}
	if _, err := ParseNow("yesterday", time.Now); err == nil || !strings.Contains(err.Error(), "--now") {
		t.Errorf("ParseNow: %v", err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if got, _ := ParseNow("", func() time.Time { return at }); !got.Equal(at) {
		t.Errorf("ParseNow default = %v", got)
	}
}
