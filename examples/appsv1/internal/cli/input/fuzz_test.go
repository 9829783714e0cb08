package input

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// FuzzReadObjects: any input gives objects or an error, never a panic, and
// a JSON syntax error's position lies within the input; with Single, a
// Deployment object read as a List of one holds exactly one Deployment.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		if objs, err := ReadObjects(bytes.NewReader(data), Options{MaxBytes: 1 << 20, Single: true}); err == nil && !objs.Case && objs.Items == 1 && objs.Format != "" {
			if n := len(objs.Deployments) + len(objs.ReplicaSets) + len(objs.Pods) + len(objs.Ignored); n != 1 {
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
	})
}
