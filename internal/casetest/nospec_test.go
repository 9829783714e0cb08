package casetest

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// specCitation matches a citation of the specification document the
// library was written from, which does not ship with the module: "spec"
// followed by a section sign, a section sign followed by a digit, or "spec
// Example" followed by a number. Comments, test reasons and messages name the
// upstream function or state the rule in words instead. The pattern is
// spelled with escapes so that this file does not match itself.
var specCitation = regexp.MustCompile(`(?i:spec)\s*\x{00A7}|\x{00A7}\s*[0-9]|\bspec Example [0-9]`)

func TestSpecCitationPattern(t *testing.T) {
	const sect = "\u00a7"
	cases := []struct {
		line string
		want bool
	}{
		{"// see spec " + sect + "6.2", true},
		{`"` + sect + `17 Ex1: 10 replicas"`, true},
		{"(" + sect + " 18.4)", true},
		{"// spec Exam" + "ple 12", true},
		{"// Spec" + sect, true},
		{"// upstream's ResolveFenceposts (deployment/util)", false},
		{"d.Spec.Replicas", false},
		{"// a lone " + sect + " sign without a number", false},
	}
	for _, c := range cases {
		if got := specCitation.MatchString(c.line); got != c.want {
			t.Errorf("specCitation.MatchString(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestNoSpecCitations fails when a .go file of the repository (every module,
// examples included) cites the specification document by section.
func TestNoSpecCitations(t *testing.T) {
	root := repoRoot(t)
	var found []string
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 64*1024), len(b)+1)
		for n := 1; sc.Scan(); n++ {
			if specCitation.Match(sc.Bytes()) {
				rel, _ := filepath.Rel(root, path)
				found = append(found, filepath.ToSlash(rel)+":"+strconv.Itoa(n)+": "+strings.TrimSpace(sc.Text()))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked only %d .go files under %s: wrong root?", files, root)
	}
	if len(found) > 0 {
		t.Errorf("%d lines cite the specification document by section; name the upstream function or state the rule in words:\n%s",
			len(found), strings.Join(found, "\n"))
	}
}

// repoRoot returns the directory of the core module's go.mod, walking up
// from the test's working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module github.com/rolloutplan/rolloutplan\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of module github.com/rolloutplan/rolloutplan above the working directory")
		}
		dir = parent
	}
}
