package model_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// formatArg maps the functions of this module (and fmt) that take a format
// to the index of that argument. go vet checks the arguments of every such
// call (plan's reason, reasonAfter, event and fail pass their format to
// fmt.Sprintf, so vet knows them as printf wrappers); TestNoStrayFormatVerbs
// checks every other string.
var formatArg = map[string]int{
	"Sprintf": 0, "Errorf": 0, "Printf": 0, "Fprintf": 1, "Fatalf": 0, "Logf": 0, "Skipf": 0,
	"add": 2, "selectorError": 0, "event": 2, "fail": 1, "reason": 2, "printf": 0, "write": 1,
	"Appendf": 1, "reasonAfter": 3, "note": 0, "carry": 3,
}

// strayVerb matches what a string that is never formatted must not hold: a
// doubled percent sign (printed as two) or a verb such as %d or %q (printed
// literally).
var strayVerb = regexp.MustCompile(`%%|%[-+# 0-9.]*[a-zA-Z]`)

// Every string literal of the module's code that is not the format of a
// formatting call is printed as written, so it must not contain a format
// verb or "%%": the message "must not be greater than 100%%" was once
// written that way.
func TestNoStrayFormatVerbs(t *testing.T) {
	root := filepath.Join("..")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() {
			if path != root && (name == "examples" || name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		formats := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch x := call.Fun.(type) {
			case *ast.Ident:
				fn = x.Name
			case *ast.SelectorExpr:
				fn = x.Sel.Name
			}
			if i, ok := formatArg[fn]; ok && i < len(call.Args) {
				// The format may be a concatenation of literals.
				ast.Inspect(call.Args[i], func(n ast.Node) bool {
					if lit, ok := n.(*ast.BasicLit); ok {
						formats[lit] = true
					}
					return true
				})
			}
			return true
		})
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || formats[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			checked++
			if m := strayVerb.FindString(s); m != "" {
				t.Errorf("%s: %q holds %q but is never formatted", fset.Position(lit.Pos()), s, m)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d strings checked: is the walk rooted at the module?", checked)
	}
}

// The validation messages, formatted, hold no formatting debris.
func TestValidationMessagesAreClean(t *testing.T) {
	pct := func(s string) *model.IntOrString { v := model.FromString(s); return &v }
	bad := &model.Deployment{
		ObjectMeta: model.ObjectMeta{Name: "Bad Name", Namespace: "Bad NS/..", UID: strings.Repeat("u", 10000), Generation: -1},
		Spec: model.DeploymentSpec{
			Replicas: model.Int32Ptr(-1), Selector: &model.LabelSelector{},
			Template:        model.PodTemplate{Labels: map[string]string{"a b": "c d"}, Annotations: map[string]string{"bad key/": "x"}},
			Strategy:        model.Strategy{Type: model.RollingUpdateStrategy, RollingUpdate: &model.RollingUpdate{MaxSurge: pct("x%"), MaxUnavailable: pct("150%")}},
			MinReadySeconds: -1, RevisionHistoryLimit: model.Int32Ptr(-1), ProgressDeadlineSeconds: model.Int32Ptr(0),
		},
		Status: model.DeploymentStatus{Replicas: -1, CollisionCount: model.Int32Ptr(-1)},
	}
	err := model.Validate(bad, []*model.ReplicaSet{nil, {}}, []*model.Pod{nil, {ObjectMeta: model.ObjectMeta{Namespace: "UPPER", UID: "a b"}}})
	if err == nil {
		t.Fatal("no error")
	}
	var ve *model.ValidationError
	if !errorsAs(err, &ve) || len(ve.Errors) < 15 {
		t.Fatalf("want many field errors, got %v", err)
	}
	for _, fe := range ve.Errors {
		msg := fe.Error()
		if strings.Contains(msg, "%!") || strings.Contains(msg, "%%") {
			t.Errorf("message with formatting debris: %s", msg)
		}
		if len(msg) > 600 {
			t.Errorf("message of %d bytes: long values must be cut: %.200s…", len(msg), msg)
		}
	}
	if !strings.Contains(err.Error(), "must not be greater than 100%:") && !strings.Contains(err.Error(), "must not be greater than 100%;") && !strings.HasSuffix(err.Error(), "must not be greater than 100%") {
		t.Errorf("the 100%% message is missing or mangled: %v", err)
	}
}

func errorsAs(err error, target **model.ValidationError) bool {
	ve, ok := err.(*model.ValidationError)
	if ok {
		*target = ve
	}
	return ok
}
