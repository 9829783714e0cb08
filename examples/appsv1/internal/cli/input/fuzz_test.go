package input

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadObjects: any input gives objects or an error, never a panic, and
// a JSON syntax error's position lies within the input; with Single, a
// Deployment object read as a List of one holds exactly one Deployment. For
// streams of several documents: the documents the reader accepts are those
// kubectl's -f reader decodes, each document's line is its first line of
// content in the input, a DocumentError names a document and a line that
// exist, and reading the same input again gives the same objects or error.
func FuzzReadObjects(f *testing.F) {
	for _, name := range []string{"nginx-mid.json", "nginx-mid-extra.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("kind: List\nitems: []\n"))
	f.Add([]byte(`{"now":"2025-03-01T10:00:00Z","deployment":{}}`))
	f.Add([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"))
	f.Add([]byte("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, namespace: shop}\n"))
	f.Add([]byte(`{"now":"2025-03-01T10:00:00Z","statefulSet":{},"pvcs":[]}`))
	f.Add([]byte(`{"now":"2025-03-01T10:00:00Z","daemonSet":{},"nodes":[{}]}`))
	f.Add([]byte("kind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {apiVersion: apps/v1, kind: ControllerRevision, metadata: {name: r}}\n"))
	f.Add([]byte("kind: List\nitems: []\n---\n# c\n--- # d\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n...\n"))
	f.Add([]byte("{\"kind\":\"List\",\"items\":[]}\n{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if objs, err := ReadObjects(bytes.NewReader(data), Options{MaxBytes: 1 << 20, Single: true}); err == nil && !objs.Case && objs.Items == 1 && objs.Format != "" {
			if n := len(objs.Deployments) + len(objs.ReplicaSets) + len(objs.Pods) + len(objs.StatefulSets) + len(objs.DaemonSets) +
				len(objs.ControllerRevisions) + len(objs.PVCs) + len(objs.Nodes) + len(objs.Ignored); n != 1 {
				t.Fatalf("a single item became %d objects", n)
			}
		}
		objs, err := ReadObjects(bytes.NewReader(data), Options{MaxBytes: 1 << 20})
		var se *SyntaxError
		isJSON := bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{"))
		if errors.As(err, &se) && isJSON && (se.Offset < 0 || se.Offset > int64(len(data)) || se.Line < 1 || se.Column < 1) {
			t.Fatalf("syntax error %+v outside %d bytes", se, len(data))
		}
		if (err == nil) == (objs == nil) {
			t.Fatalf("objects %v with error %v", objs, err)
		}
		var de *DocumentError
		if errors.As(err, &de) && (de.Index < 1 || de.Line < 1 || de.Line > bytes.Count(data, []byte{'\n'})+1) {
			t.Fatalf("%v: no such document or line in %d lines", err, bytes.Count(data, []byte{'\n'})+1)
		}
		checkLines(t, data)
		sameAsKubectl(t, data)
		// Deterministic: the same input reads the same again.
		again, errAgain := ReadObjects(bytes.NewReader(data), Options{MaxBytes: 1 << 20})
		if diff := cmp.Diff(objs, again); diff != "" || fmt.Sprint(err) != fmt.Sprint(errAgain) {
			t.Fatalf("%q read twice: %v, then %v; objects (-first +second):\n%s", data, err, errAgain, diff)
		}
	})
}

// checkLines: the line of each YAML document is its first line of content
// in data (line ends aside).
func checkLines(t *testing.T, data []byte) {
	docs, format, err := splitDocuments(data)
	if err != nil || format != YAML {
		return
	}
	all := bytes.Split(data, []byte{'\n'})
	for _, d := range docs {
		text := bytes.Split(d.text, []byte{'\n'})
		first := d.line - d.base - 1
		if d.line > len(all) || first < 0 || first >= len(text) {
			t.Fatalf("document %d of %q: line %d out of range", d.index, data, d.line)
		}
		want := all[d.line-1]
		if d.line < len(all) { // "\r\n" reads as "\n"
			want = bytes.TrimSuffix(want, []byte{'\r'})
		}
		if !bytes.Equal(want, text[first]) {
			t.Fatalf("document %d of %q: line %d is not its line %d", d.index, data, d.line, first+1)
		}
	}
}
