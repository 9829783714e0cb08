package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type namedString string
type namedInt int32

// sprintf is appendf's text as a string of its own (a nil memory's).
func sprintf(format string, args ...any) string {
	return (*planMemory)(nil).sprintf(format, args...)
}

// formatArgs returns arguments fitting format's verbs: a string for %s, %q
// and (alternately) %v, an integer of a varying type for %d and %+d.
func formatArgs(format string, r *rand.Rand) []any {
	strs := []any{"web", "", "web-5d7", `quo"te`, "ünï\tcode", namedString("named")}
	ints := []any{0, -1, int32(7), int64(-9223372036854775808), int32(2147483647), namedInt(-3), int64(42)}
	var args []any
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '+' {
			i++
		}
		if i >= len(format) {
			break
		}
		switch format[i] {
		case 's', 'q':
			args = append(args, strs[r.IntN(len(strs))])
		case 'd':
			args = append(args, ints[r.IntN(len(ints))])
		case 'v':
			if r.IntN(2) == 0 {
				args = append(args, strs[r.IntN(len(strs))])
			} else {
				args = append(args, ints[r.IntN(len(ints))])
			}
		}
	}
	return args
}

// plannerFormats returns every format string literal the package's code
// passes to reason, reasonAfter, sprintf, appendf, (*syncer).event and
// (*syncer).fail.
func plannerFormats(t *testing.T) []string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	formatArg := map[string]int{"reason": 2, "sprintf": 0, "event": 2, "fail": 1, "appendf": 1, "reasonAfter": 3}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var fn string
			switch c := call.Fun.(type) {
			case *ast.Ident:
				fn = c.Name
			case *ast.SelectorExpr:
				fn = c.Sel.Name
			}
			i, ok := formatArg[fn]
			if !ok || i >= len(call.Args) {
				return true
			}
			if id, ok := call.Args[i].(*ast.Ident); ok && id.Name == "format" {
				return true // a wrapper passing its own format on
			}
			lit, ok := call.Args[i].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: %s's format is not a string literal", fset.Position(call.Pos()), fn)
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(call.Args) - i - 1; got != strings.Count(strings.ReplaceAll(s, "%%", ""), "%") {
				t.Errorf("%s: %d arguments for %q", fset.Position(call.Pos()), got, s)
			}
			out = append(out, s)
			return true
		})
	}
	return out
}

// TestSprintfPlannerFormats: for every format the planner formats, with
// fitting arguments of every supported type, sprintf writes fmt.Sprintf's
// text.
func TestSprintfPlannerFormats(t *testing.T) {
	formats := plannerFormats(t)
	if len(formats) < 40 {
		t.Fatalf("found %d formats, want the planner's (more than 40)", len(formats))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range formats {
		for range 20 {
			args := formatArgs(f, r)
			for _, verb := range []string{"%x", "%5d", "%#v", "%+s"} {
				if strings.Contains(f, verb) {
					t.Errorf("format %q uses %s, which sprintf does not support", f, verb)
				}
			}
			likeFmt(t, f, args...)
		}
	}
}

// likeFmt reports whether sprintf, and a plan memory's sprintf, write what
// fmt.Sprintf does, and fails t when they do not.
func likeFmt(t *testing.T, format string, args ...any) bool {
	t.Helper()
	want := fmt.Sprintf(format, args...)
	if got := sprintf(format, args...); got != want {
		t.Errorf("sprintf(%q, %v) = %q, fmt.Sprintf gives %q", format, args, got, want)
		return false
	}
	if got := new(planMemory).sprintf(format, args...); got != want {
		t.Errorf("planMemory.sprintf(%q, %v) = %q, fmt.Sprintf gives %q", format, args, got, want)
		return false
	}
	return true
}

// TestSprintfLikeFmt covers the forms fmt writes for misuse, and random
// formats built from the supported verbs.
func TestSprintfLikeFmt(t *testing.T) {
	for _, tc := range []struct {
		format string
		args   []any
	}{
		{"%d of %s", []any{"web", 3}},           // wrong types both ways
		{"%s %d", []any{"a"}},                   // a missing argument
		{"%s", []any{"a", 1, namedString("b")}}, // extra arguments
		{"100%% done %+d %+d %+d", []any{0, -4, int64(5)}},
		{"ends with %", nil},
		{"ends with %+", nil},
		{"%v and %v", []any{namedInt(-2), namedString("x")}},
		{"%q", []any{"tab\there \u00e9 \x01"}},
		{"", []any{1}},
		{"%é and %", []any{}},
		{"%+% takes no argument", []any{"a"}},
	} {
		likeFmt(t, tc.format, tc.args...)
	}
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"%s", "%q", "%d", "%+d", "%v", "%%", "a", " ", "→", "é"}
	for range 2000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		f := b.String()
		args := formatArgs(f, r)
		if n := r.IntN(4); n == 0 && len(args) > 0 {
			args = args[:len(args)-1]
		} else if n == 1 {
			args = append(args, int32(5), "extra")
		}
		if !likeFmt(t, f, args...) {
			break
		}
	}
}

func TestSprintfUnsupported(t *testing.T) {
	for _, tc := range []struct {
		format string
		args   []any
		want   string
	}{
		{"%x", []any{"a"}, "%!x(unsupported)"},
		{"%+s", []any{"a"}, "%!s(unsupported)"},
		{"%q", []any{65}, "%!q(unsupported)"},
		{"%d", []any{1.5}, "%!d(unsupported)"},
		{"%s", []any{"a", true}, "a%!(EXTRA unsupported)"},
	} {
		if got := sprintf(tc.format, tc.args...); got != tc.want {
			t.Errorf("sprintf(%q, %v) = %q, want %q", tc.format, tc.args, got, tc.want)
		}
	}
}

var sprintfSink string

func TestSprintfAllocatesOnlyItsResult(t *testing.T) {
	name, n := "web-5d7", int32(12)
	if allocs := testing.AllocsPerRun(100, func() {
		sprintfSink = sprintf("old %s %d→%d: %q", name, n, int64(n)-1, name)
	}); allocs != 1 {
		t.Errorf("sprintf allocates %v times, want 1 (the string)", allocs)
	}
}

func BenchmarkSprintf(b *testing.B) {
	name, n := "web-5d7", int32(12)
	b.ReportAllocs()
	for b.Loop() {
		_ = sprintf("old %s %d→%d: available %d > minAvailable %d = replicas %d − maxUnavailable %d", name, n, n-2, 10, 8, 10, 2)
	}
}

// FuzzSprintf: for any format made of text and the supported verbs, with a
// string for %s, %q and %v and an integer for %d and %+d, sprintf writes
// fmt.Sprintf's text (formats with other verbs or flags are skipped).
func FuzzSprintf(f *testing.F) {
	f.Add("old %s %d→%d: %q", "web-5d7", int64(-3))
	f.Add("100%% %+d of %v", "é\x00", int64(0))
	f.Add("ends with %", "", int64(9))
	f.Fuzz(func(t *testing.T, format, s string, n int64) {
		var args []any
		for i := 0; i < len(format); i++ {
			if format[i] != '%' {
				continue
			}
			i++
			if i < len(format) && format[i] == '+' {
				i++
				if i < len(format) && format[i] != 'd' && format[i] != '%' {
					t.Skip("a flag sprintf does not support")
				}
			}
			if i >= len(format) {
				break
			}
			switch format[i] {
			case 's', 'q', 'v':
				args = append(args, s)
			case 'd':
				args = append(args, n)
			case '%':
			default:
				t.Skip("a verb sprintf does not support")
			}
		}
		if got, want := sprintf(format, args...), fmt.Sprintf(format, args...); got != want {
			t.Fatalf("sprintf(%q, %v) = %q, fmt.Sprintf gives %q", format, args, got, want)
		}
	})
}
