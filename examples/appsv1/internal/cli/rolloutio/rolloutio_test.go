package rolloutio

import (
	"errors"
	"flag"
	"fmt"
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

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"", "not a JSON object"},
		{"kind: List", "not a JSON object"},
		{`{"kind":"List","items":[]}`, "no such deployment"},
		{`{"kind":"PodList","items":[{"kind":"Pod"}]}`, "no such deployment"},
	} {
		var tg Target
		if _, err := tg.Read(strings.NewReader(tc.in), time.Time{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%q) = %v, want %q", tc.in, err, tc.want)
		}
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
