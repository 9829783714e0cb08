package conformancefile

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestRead decodes a two-entry file written here, and reports a missing
// file and a file that is not gzip as errors.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(`[{"id":"a","state":{"N":1}},{"id":"b","state":{"N":2}}]`)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "states.json.gz")
	if err := os.WriteFile(good, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Read[struct{ N int }](good)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "a" || got[0].State.N != 1 || got[1].ID != "b" || got[1].State.N != 2 {
		t.Fatalf("Read = %+v, want [{a {1}} {b {2}}]", got)
	}
	if _, err := Read[struct{}](filepath.Join(dir, "missing.json.gz")); err == nil {
		t.Error("a missing file: no error")
	}
	plain := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(plain, []byte(`[]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read[struct{}](plain); err == nil {
		t.Error("a file that is not gzip: no error")
	}
}
