package importrules

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/rolloutplan/rolloutplan"

// direct lists, for every package of the core module (relative to the module
// root), the module packages its non-test files may import directly; each
// also may import whatever those may import (see allowed). A package missing
// here fails the test, so a new package gets a rule when it is added.
var direct = map[string][]string{
	"model":                    {},
	"hash":                     {"model"},
	"revision":                 {"model"},
	"proportion":               {"model"},
	"plan":                     {"hash", "revision", "proportion"},
	"plan/render":              {"plan"},
	"plan/inmemory":            {"plan/render"},
	"plan/replicaset":          {"plan"},
	"plan/statefulset":         {"plan"},
	"plan/daemonset":           {"plan/replicaset"},
	"plan/plantest":            {"plan/replicaset", "plan/statefulset", "plan/daemonset"},
	"plan/plantest/gen":        {"plan/plantest"},
	"plan/sim":                 {"plan/plantest", "plan/inmemory"},
	"plan/rollout":             {"plan/sim"},
	"plan/restart":             {"model"},
	"plan/restart/replay":      {"plan/restart"},
	"plan/enqueue":             {"model"},
	"plan/evidence":            {"model"},
	"internal/casetest":        {},
	"internal/conformancefile": {},
	"internal/cputime":         {},
	"internal/importrules":     {},
}

// testLibraries may be imported only by plan/plantest/gen and by _test.go
// files.
var testLibraries = []string{
	"pgregory.net/rapid",
	"github.com/google/go-cmp",
	"github.com/stretchr/testify",
}

const testLibraryUser = "plan/plantest/gen"

// allowed returns the transitive closure of direct for pkg.
func allowed(pkg string) map[string]bool {
	out := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, q := range direct[p] {
			if !out[q] {
				out[q] = true
				walk(q)
			}
		}
	}
	walk(pkg)
	return out
}

// imports maps each package directory of the core module (relative, slash
// separated) to the imports of its non-test files.
func imports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module has its own rules
				}
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			out[rel] = append(out[rel], p)
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// violations checks every package against the rules and returns one line
// per forbidden import.
func violations(pkgs map[string][]string) []string {
	var out []string
	for pkg, imps := range pkgs {
		example := pkg == "examples" || strings.HasPrefix(pkg, "examples/")
		_, known := direct[pkg]
		if !known && !example {
			out = append(out, fmt.Sprintf("%s: no import rule; add one to direct in internal/importrules", pkg))
			continue
		}
		ok := allowed(pkg)
		for _, imp := range imps {
			for _, lib := range testLibraries {
				if (imp == lib || strings.HasPrefix(imp, lib+"/")) && pkg != testLibraryUser {
					out = append(out, fmt.Sprintf("%s imports test library %s (only %s and _test.go files may)", pkg, imp, testLibraryUser))
				}
			}
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			target := strings.TrimPrefix(strings.TrimPrefix(imp, module), "/")
			switch {
			case target == "examples" || strings.HasPrefix(target, "examples/"):
				if !example {
					out = append(out, fmt.Sprintf("%s imports %s (nothing outside examples/ may import examples/)", pkg, imp))
				}
			case example:
				// A command under examples/ may use any library package.
			case !ok[target]:
				out = append(out, fmt.Sprintf("%s imports %s (a package above or beside it; allowed: %s)", pkg, imp, strings.Join(sortedKeys(ok), ", ")))
			}
		}
	}
	slices.Sort(out)
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return []string{"nothing of the module"}
	}
	return out
}

func TestImportRules(t *testing.T) {
	pkgs := imports(t, filepath.Join("..", ".."))
	for pkg := range direct {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("rule for %s, but no such package: remove the rule or fix its name", pkg)
		}
	}
	for _, v := range violations(pkgs) {
		t.Error(v)
	}
}

// TestImportRulesCatch shows that each kind of violation is reported.
func TestImportRulesCatch(t *testing.T) {
	cases := []struct {
		name string
		pkgs map[string][]string
		want string
	}{
		{"model imports hash", map[string][]string{"model": {module + "/hash"}}, "model imports " + module + "/hash"},
		{"hash imports revision", map[string][]string{"hash": {module + "/revision"}}, "hash imports " + module + "/revision"},
		{"plan imports replicaset", map[string][]string{"plan": {module + "/plan/replicaset"}}, "plan imports " + module + "/plan/replicaset"},
		{"sim imports gen", map[string][]string{"plan/sim": {module + "/plan/plantest/gen"}}, "plan/sim imports " + module + "/plan/plantest/gen"},
		{"restart imports plan", map[string][]string{"plan/restart": {module + "/plan"}}, "plan/restart imports " + module + "/plan"},
		{"enqueue imports plan", map[string][]string{"plan/enqueue": {module + "/plan"}}, "plan/enqueue imports " + module + "/plan"},
		{"plan imports rapid", map[string][]string{"plan": {"pgregory.net/rapid"}}, "plan imports test library pgregory.net/rapid"},
		{"sim imports cmp", map[string][]string{"plan/sim": {"github.com/google/go-cmp/cmp"}}, "plan/sim imports test library github.com/google/go-cmp/cmp"},
		{"plantest imports testify", map[string][]string{"plan/plantest": {"github.com/stretchr/testify/require"}}, "plan/plantest imports test library github.com/stretchr/testify/require"},
		{"core imports examples", map[string][]string{"plan/rollout": {module + "/examples/simulate"}}, "plan/rollout imports " + module + "/examples/simulate"},
		{"unknown package", map[string][]string{"plan/newthing": {}}, "plan/newthing: no import rule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := violations(c.pkgs)
			if len(got) != 1 || !strings.HasPrefix(got[0], c.want) {
				t.Errorf("violations = %q, want one starting with %q", got, c.want)
			}
		})
	}
	allowedCases := map[string][]string{
		"plan/rollout":      {module + "/plan/sim", module + "/plan", module + "/model", "fmt"},
		"plan/plantest/gen": {"pgregory.net/rapid", module + "/plan/plantest"},
		"examples/simulate": {module + "/plan/sim"},
	}
	if got := violations(allowedCases); len(got) != 0 {
		t.Errorf("allowed imports reported: %q", got)
	}
}
