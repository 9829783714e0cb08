package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// items returns the items of nginx-mid.json (a Deployment, 2 ReplicaSets,
// 3 Pods) as compact JSON and as YAML (sigs.k8s.io/yaml's JSONToYAML, the
// conversion kubectl's YAML printer makes).
func items(t testing.TB) (asJSON, asYAML []string) {
	t.Helper()
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(load(t, "nginx-mid.json"), &list); err != nil {
		t.Fatal(err)
	}
	for _, raw := range list.Items {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatal(err)
		}
		y, err := yaml.JSONToYAML(raw)
		if err != nil {
			t.Fatal(err)
		}
		asJSON = append(asJSON, b.String())
		asYAML = append(asYAML, string(y))
	}
	return asJSON, asYAML
}

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\n"

// A stream of several documents reads as kubectl -f reads it: every
// document, each a List or a single object, their items in order. Every
// input holds the 6 items of nginx-mid.json (and some a ConfigMap or two),
// so the objects must equal those of the List.
func TestReadDocuments(t *testing.T) {
	list := string(load(t, "nginx-mid.json"))
	js, ys := items(t)
	jsonList := func(items ...string) string {
		return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + "]}"
	}
	perItem := func(docs []string, sep string) string { return sep + strings.Join(docs, "\n"+sep) }
	commented := "# the state of shop\n---\n---\n" + ys[0] + "--- # the ReplicaSets\n" + ys[1] + "---   \n" + ys[2] +
		"---\n# only a comment\n---\n\n" + ys[3] + "...\n# the end of the 4th Pod... and a comment\n---\t\n" + ys[4] + "---\n" + ys[5] + "---\n"
	for _, tc := range []struct {
		name, input string
		format      Format
		configMaps  int
	}{
		// The bug: the second document was dropped ("no such deployment").
		{"an empty List, then the List", "apiVersion: v1\nkind: List\nitems: []\n---\n" + list, YAML, 0},
		{"one JSON document per item", perItem(js, "---\n"), YAML, 0},
		{"one YAML document per item", "---\n" + strings.Join(ys, "---\n"), YAML, 0},
		{"comments, empty documents, separators with comments and spaces, an end marker", commented, YAML, 0},
		{"CRLF line ends", strings.ReplaceAll(commented, "\n", "\r\n"), YAML, 0},
		{"Lists and objects mixed", jsonList(js[:3]...) + "\n---\n" + ys[3] + "---\n" + configMap + "---\n" + jsonList(js[4:]...), YAML, 1},
		{"concatenated JSON objects", strings.Join(js, ""), JSON, 0},
		{"JSON objects one per line", strings.Join(js, "\n") + "\n", JSON, 0},
		{"a JSON List, then YAML", list + "\n---\n" + configMap, YAML, 1},
		{"null documents", "~\n---\n" + list + "\n---\nnull\n", YAML, 0},
		{"other kinds in several documents", configMap + "---\n" + list + "\n---\n" + configMap, YAML, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := ReadObjects(strings.NewReader(list), Options{})
			if err != nil {
				t.Fatal(err)
			}
			want.Format = tc.format
			want.Items += tc.configMaps
			if tc.configMaps > 0 {
				want.Ignored = []Ignored{{Kind: "ConfigMap", APIVersion: "v1", Count: tc.configMaps, Why: WhyOtherKind}}
			}
			for _, single := range []bool{false, true} {
				got, err := ReadObjects(strings.NewReader(tc.input), Options{Single: single})
				if err != nil {
					t.Fatalf("Single %v: %v", single, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Single %v: objects differ from the List's (-want +got):\n%s", single, diff)
				}
			}
			sameAsKubectl(t, []byte(tc.input))
		})
	}
}

// Errors in a stream of several documents name the document (its number
// and its first line that is not blank, a comment or "---") and, as in a
// List, the item and the JSON path. The lines are counted by hand in the
// inputs below.
func TestReadDocumentsRejects(t *testing.T) {
	const (
		// Lines 1-3: a ConfigMap; 4: ---; 5-7: an empty List; 8: "---
		// # third"; 9: a comment; 10-13: the third document.
		head   = configMap + "---\napiVersion: v1\nkind: List\nitems: []\n--- # third\n# the Deployment\n"
		deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
		aCase  = `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"a"}}}`
	)
	list := strings.TrimSpace(string(load(t, "nginx-mid.json")))
	listLines := strings.Count(list, "\n") + 1
	for _, tc := range []struct {
		name, input string
		want        string
		doc, line   int // the DocumentError's, 0 when there is none
	}{
		{"unknown field in the 3rd document", head + deploy + "spec: {replica: 3}\n",
			`document 3 (line 10): Deployment shop/web: unknown field "spec.replica"`, 3, 10},
		{"unknown field in an item of the 3rd document", head + "kind: List\napiVersion: v1\nitems:\n- " + strings.ReplaceAll(deploy, "\n", "\n  ") + "spec: {replica: 3}\n",
			`document 3 (line 10): items[0] (Deployment shop/web): unknown field "spec.replica"`, 3, 10},
		{"case-mismatched key in the 3rd document", head + deploy + "Spec: {}\n",
			`document 3 (line 10): Deployment shop/web: unknown field "Spec"`, 3, 10},
		{"duplicate key in the 3rd document, its line counted in the file", head + deploy + "kind: Deployment\n",
			"document 3 (line 10): YAML input: yaml: unmarshal errors:\n  line 13: key \"kind\" already set in map", 3, 10},
		{"same, CRLF line ends", strings.ReplaceAll(head+deploy+"kind: Deployment\n", "\n", "\r\n"),
			"document 3 (line 10): YAML input: yaml: unmarshal errors:\n  line 13: key \"kind\" already set in map", 3, 10},
		{"YAML syntax error in the 3rd document", head + deploy + "spec: [1,\n",
			"document 3 (line 10): YAML input: yaml: line 13: did not find expected node content", 3, 10},
		{"duplicate key in the 1st document of several", list + "\n---\n" + configMap + "metadata: {}\n",
			"document 2 (line " + itoa(listLines+2) + "): YAML input: yaml: unmarshal errors:\n  line " + itoa(listLines+5) + `: key "metadata" already set in map`, 2, listLines + 2},
		{"duplicate key in the 2nd JSON object", `{"kind":"List","items":[]}` + "\n" + `{"apiVersion":"v1","kind":"Pod","kind":"Pod"}`,
			`document 2 (line 2): Pod /: duplicate field "kind"`, 2, 2},
		{"case-mismatched key in the 2nd JSON object", `{"kind":"List","items":[]}{"apiVersion":"v1","kind":"Pod","Metadata":{}}`,
			`document 2 (line 1): Pod /: unknown field "Metadata"`, 2, 1},
		{"an item without kind", head + "kind: List\nitems: [{metadata: {}}]\n", "document 3 (line 10): items[0]: no kind", 3, 10},
		{"a Case in a stream", configMap + "---\n" + aCase + "\n",
			`document 2 (line 5): a conformance Case (a "deployment" key) is only valid as the only document of the input`, 2, 5},
		{"a Case first", aCase + "\n---\n" + configMap,
			`document 1 (line 1): a conformance Case (a "deployment" key) is only valid as the only document of the input`, 1, 1},
		{"a seed line in a stream", `{"case":` + aCase + "}\n" + `{"kind":"List","items":[]}`,
			`document 1 (line 1): a line of public-seed1.jsonl (a "case" key) is only valid as the only document of the input`, 1, 1},
		{"neither a List nor an object", configMap + "---\nmetadata: {}\n",
			`document 2 (line 5): the document is neither a List (no "items") nor an object (no "kind")`, 2, 5},
		{"not an object", configMap + "---\n# a scalar\nhello\n",
			"document 2 (line 6): the document is not a JSON object: got a string, want an object", 2, 6},
		{"a separator with text", configMap + "---x\n" + configMap,
			`YAML input: line 4: "---x" is not a document separator: only spaces and a comment may follow "---"`, 0, 0},
		{"a separator with text after a document", configMap + "---\n" + configMap + "--- kind: List\n",
			`YAML input: line 8: "--- kind: List" is not a document separator: only spaces and a comment may follow "---"`, 0, 0},
		{"content after an end marker", configMap + "...\nkind: List\n---\n" + configMap,
			`document 1 (line 1): YAML input: line 5: content after the document end marker "..." of line 4 would be dropped: separate documents with a "---" line`, 1, 1},
		{"text after an end marker", configMap + "---\n" + configMap + "... kind: List\n",
			`document 2 (line 5): YAML input: line 8: text after the document end marker "...": separate documents with a "---" line`, 2, 5},
		// sigs.k8s.io/yaml converts the first document of its text only, and
		// kubectl drops the rest: "{...}" lines without "---" between them.
		// The parser names the line where the first document ends.
		{"JSON objects on lines of a YAML stream", configMap + "---\n{\"kind\":\"List\",\"items\":[]}\n{\"kind\":\"List\",\"items\":[]}\n",
			`document 2 (line 5): YAML input: content after the end of the document would be dropped (separate documents with a "---" line): yaml: line 5: did not find expected <document start>`, 2, 5},
		{"a flow mapping, then another, in the only document", "---\n{kind: List, items: []}\n{kind: List}\n",
			`YAML input: content after the end of the document would be dropped (separate documents with a "---" line): yaml: line 2: did not find expected <document start>`, 0, 0},
		{"an indented mapping, then a key at column 0", "  kind: List\n  items: []\nkind: List\n",
			`YAML input: content after the end of the document would be dropped (separate documents with a "---" line): yaml: line 2: did not find expected <document start>`, 0, 0},
		// kubectl's YAMLReader takes "---#" for a separator, its parser for a
		// string.
		{"a separator with a comment without a space", "---#\n---\n" + configMap,
			`YAML input: line 1: "---#" is not a document separator: a space must come between "---" and a comment`, 0, 0},
		{"a separator with a comment without a space after a JSON object", `{"kind":"List","items":[]}` + "\n---#0\n",
			`YAML input: line 2: "---#0" is not a document separator: a space must come between "---" and a comment`, 0, 0},
		// The conversion keeps one of two keys that are one JSON key, which
		// one by Go's map order (kubectl too).
		{"keys 1 and \"1\"", "apiVersion: v1\nkind: ConfigMap\ndata:\n  \"1\": a\n  1: b\n",
			`YAML input: two keys of a mapping are one key in JSON (such as 1 and "1", or 0 and 0.0): one of them would be dropped`, 0, 0},
		{"keys 0 and 0.0 in the 2nd document", configMap + "---\nkind: List\nitems:\n- metadata: {labels: {0: a, 0.0: b}}\n",
			`document 2 (line 5): YAML input: two keys of a mapping are one key in JSON (such as 1 and "1", or 0 and 0.0): one of them would be dropped`, 2, 5},
		// kubectl's parser refuses it too: comments are parsed.
		{"a control character in a comment", configMap + "---\n# \x15\n", "the comments from line 5: YAML input: yaml: control characters are not allowed", 0, 0},
		{"only empty documents", "---\n# nothing\n---\n\n---\n", "empty input: only empty YAML documents and comments", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadObjects(strings.NewReader(tc.input), Options{Single: true})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant  %s", err, tc.want)
			}
			var de *DocumentError
			if got := errors.As(err, &de); got != (tc.doc > 0) || got && (de.Index != tc.doc || de.Line != tc.line) {
				t.Errorf("DocumentError %+v, want document %d line %d", de, tc.doc, tc.line)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// The strict errors keep their types inside a DocumentError.
func TestDocumentErrorUnwraps(t *testing.T) {
	_, err := ReadObjects(strings.NewReader(configMap+"---\napiVersion: apps/v1\nkind: Deployment\nspec: {replica: 3}\n"), Options{})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Item != "Deployment /" || fe.Problems[0] != `unknown field "spec.replica"` {
		t.Errorf("FieldError %+v from %v", fe, err)
	}
}

// JSON streams: kubectl -f decodes JSON objects one after another. A value
// that is not an object is refused where it starts; an error inside the
// second object names it and its line, with the position in the input.
func TestReadJSONStreamRejects(t *testing.T) {
	const first = `{"kind":"List","apiVersion":"v1","items":[]}`
	for _, tc := range []struct {
		input       string
		offset      int64
		line, col   int
		msg         string
		doc, atLine int
	}{
		{first + "\n[1]", 45, 2, 1, "data after the JSON document (not another JSON object)", 0, 0},
		{first + " null", 45, 1, 46, "data after the JSON document (not another JSON object)", 0, 0},
		{first + "\n\n{\"kind\":", 54, 3, 9, "unexpected end of input (truncated?)", 2, 3},
		{first + "\n{\"kind\": List}", 55, 2, 11, "invalid character 'L' looking for beginning of value", 2, 2},
	} {
		_, err := ReadObjects(strings.NewReader(tc.input), Options{})
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset || se.Line != tc.line || se.Column != tc.col || se.Msg != tc.msg {
			t.Errorf("%q: %v (%+v), want offset %d line %d column %d %q", tc.input, err, se, tc.offset, tc.line, tc.col, tc.msg)
		}
		var de *DocumentError
		if got := errors.As(err, &de); got != (tc.doc > 0) || got && (de.Index != tc.doc || de.Line != tc.atLine) {
			t.Errorf("%q: DocumentError %+v, want document %d line %d", tc.input, de, tc.doc, tc.atLine)
		}
	}
}

// Options.Single with several documents: a manifest file holding a Service
// and a Deployment reads as the Deployment, the Service reported; several
// Deployments need a name; an input without one says what it has.
func TestSingleSeveralDocuments(t *testing.T) {
	const (
		service = "apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\nspec: {ports: [{port: 80}]}\n"
		web     = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, creationTimestamp: \"2025-03-01T10:00:00Z\"}\n"
		api     = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\n"
		old     = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
	)
	for _, single := range []bool{true, false} {
		s, ignored, err := Read(strings.NewReader(service+"---\n"+web), Options{Single: single}, Selector{Latest: true})
		if err != nil || s.Deployment.Name != "web" || len(ignored) != 1 || ignored[0].String() != "1 Service (v1) (not a kind rolloutplan reads)" {
			t.Errorf("Single %v: Service and Deployment: %v, %v, %v", single, s.Deployment, ignored, err)
		}
	}
	two := service + "---\n" + web + "---\n" + api
	if _, _, err := Read(strings.NewReader(two), Options{Single: true}, Selector{Latest: true}); err == nil ||
		err.Error() != "2 Deployments match (shop/api, shop/web): name one, with -n NAMESPACE when the name is in several" {
		t.Errorf("two Deployments: %v", err)
	}
	s, ignored, err := Read(strings.NewReader(two), Options{Single: true}, Selector{Deployment: "web", Latest: true})
	if err != nil || s.Deployment.Name != "web" || len(ignored) != 2 || ignored[0].Why != WhyOtherDeployment {
		t.Errorf("two Deployments, one named: %v, %v, %v", s.Deployment, ignored, err)
	}
	_, _, err = Read(strings.NewReader(service+"---\n"+old), Options{Single: true}, Selector{Latest: true})
	if err == nil || err.Error() != "no such deployment: the input has no Deployment (ignored: 1 Deployment (extensions/v1beta1) (not a kind rolloutplan reads), 1 Service (v1) (not a kind rolloutplan reads))" {
		t.Errorf("no apps/v1 Deployment: %v", err)
	}
	_, _, err = Read(strings.NewReader(service+"---\n"+old), Options{Single: true}, Selector{Deployment: "web", Latest: true})
	if err == nil || !strings.HasSuffix(err.Error(), `"web" (the input has none; ignored: 1 Deployment (extensions/v1beta1) (not a kind rolloutplan reads), 1 Service (v1) (not a kind rolloutplan reads))`) {
		t.Errorf("no apps/v1 Deployment named web: %v", err)
	}
	// One document alone is still a manifest only with Single.
	if _, err := ReadObjects(strings.NewReader("---\n# the manifest\n---\n"+web), Options{}); err == nil || !strings.Contains(err.Error(), "the input is a single Deployment") {
		t.Errorf("one Deployment document without Single: %v", err)
	}
}

// The line reported for a document is its first line that is not blank, a
// comment or a separator; lines are counted in the input whatever the
// separators and line ends.
func TestDocumentLines(t *testing.T) {
	for _, tc := range []struct {
		input string
		lines []int
	}{
		{"a: 1\n", []int{1}},
		{"---\na: 1\n---\nb: 2", []int{2, 4}},
		{"\n\n---\n---\n# c\n\n  b: 2\n--- # x\r\nc: 3\r\n---\r\n\r\n", []int{7, 9}},
		{"a: 1\n---\n---\n---\nb: 1\n", []int{1, 5}},
		{"# a\n---\n\n# c\nz: 1\n", []int{5}},
	} {
		docs, _, err := splitDocuments([]byte(tc.input))
		if err != nil {
			t.Fatalf("%q: %v", tc.input, err)
		}
		var got []int
		for i, d := range docs {
			if d.index != i+1 {
				t.Errorf("%q: document %d has index %d", tc.input, i+1, d.index)
			}
			got = append(got, d.line)
		}
		if diff := cmp.Diff(tc.lines, got); diff != "" {
			t.Errorf("%q: lines (-want +got):\n%s", tc.input, diff)
		}
	}
}

// kubectlDocuments is what kubectl's -f reader makes of data (cli-runtime's
// StreamVisitor: apimachinery's YAMLOrJSONDecoder into RawExtensions, empty
// and null documents skipped).
func kubectlDocuments(data []byte) ([]any, error) {
	d := kyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []any
	for {
		var ext runtime.RawExtension
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// ourDocuments is the reader's documents of data, as JSON values, null
// ones left out.
func ourDocuments(data []byte) ([]any, error) {
	docs, _, err := splitDocuments(data)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, doc := range docs {
		j, err := toJSON(doc)
		if err != nil {
			return nil, err
		}
		var v any
		if err := json.Unmarshal(j, &v); err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// sameAsKubectl: documents the reader accepts are exactly the documents
// kubectl's -f reader decodes from the same input.
func sameAsKubectl(t *testing.T, data []byte) {
	t.Helper()
	ours, err := ourDocuments(data)
	if err != nil {
		return
	}
	theirs, err := kubectlDocuments(data)
	if err != nil {
		t.Fatalf("the reader accepts %q, kubectl's reader fails: %v", data, err)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Fatalf("documents of %q differ (-kubectl +reader):\n%s", data, diff)
	}
}

// The cap is on the whole input, whatever its documents.
func TestDocumentsCap(t *testing.T) {
	stream := strings.Repeat(configMap+"---\n", 100)
	if _, err := ReadObjects(strings.NewReader(stream), Options{MaxBytes: int64(len(stream)) - 1}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("one byte over the cap: %v", err)
	}
	objs, err := ReadObjects(strings.NewReader(stream), Options{MaxBytes: int64(len(stream))})
	if err != nil || objs.Items != 100 || objs.Ignored[0].Count != 100 {
		t.Errorf("at the cap: %+v, %v", objs, err)
	}
}

// A null document ("~", "null") is skipped as an empty one is: it does not
// make a lone document one of several, so the lone document's rules hold
// (a Deployment alone only with Single, a Case read as a Case).
func TestNullDocumentsLeaveALoneDocument(t *testing.T) {
	const web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
	for _, input := range []string{web + "---\n~\n", "null\n---\n" + web, "~\n---\n" + web + "---\nnull\n"} {
		if _, err := ReadObjects(strings.NewReader(input), Options{}); err == nil || err.Error() != "the input is a single Deployment; give a List (kubectl get deployment,replicasets,pods -o json)" {
			t.Errorf("%q without Single: %v, want the error of a single Deployment", input, err)
		}
		objs, err := ReadObjects(strings.NewReader(input), Options{Single: true})
		if err != nil || len(objs.Deployments) != 1 || objs.Items != 1 {
			t.Errorf("%q with Single: %+v, %v, want one Deployment", input, objs, err)
		}
	}
	aCase := `{"now":"2025-03-01T10:00:00Z","deployment":{"metadata":{"name":"a","namespace":"shop"}}}`
	objs, err := ReadObjects(strings.NewReader(aCase+"\n---\nnull\n"), Options{})
	if err != nil || !objs.Case || len(objs.Deployments) != 1 {
		t.Errorf("a Case then a null document: %+v, %v, want the Case", objs, err)
	}
	// Only null and empty documents: an empty input.
	if _, err := ReadObjects(strings.NewReader("~\n---\n# nothing\n---\nnull\n"), Options{}); err == nil || !strings.HasPrefix(err.Error(), "empty input: only empty YAML documents") {
		t.Errorf("only null documents: %v, want an empty input", err)
	}
}

// Empty documents (separators and blank lines, no comment) are not parsed:
// an input of many of them costs a few allocations per document, not three
// YAML parses (about 24 allocations) each, and still reads as empty.
func TestEmptyDocumentsAreNotParsed(t *testing.T) {
	const n = 1000
	for _, input := range []string{strings.Repeat("---\n", n), strings.Repeat("---  \r\n  \r\n", n)} {
		var err error
		allocs := testing.AllocsPerRun(3, func() { _, err = ReadObjects(strings.NewReader(input), Options{}) })
		if err == nil || !strings.HasPrefix(err.Error(), "empty input: only empty YAML documents") {
			t.Errorf("%d empty documents: %v, want an empty input", n, err)
		}
		if perDoc := allocs / n; perDoc > 6 {
			t.Errorf("%d empty documents: %.1f allocations each, want at most 6 (not parsed)", n, perDoc)
		}
	}
	// A tab-indented blank line is still parsed, and refused as kubectl
	// refuses it.
	if _, err := ReadObjects(strings.NewReader("---\n\t\n---\n"), Options{}); err == nil || !strings.Contains(err.Error(), "found character that cannot start any token") {
		t.Errorf("a tab-only line: %v, want the parser's error", err)
	}
}
