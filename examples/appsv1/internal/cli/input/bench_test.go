package input

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReadList reads a List of a Deployment, 2 ReplicaSets, 5 Pods and
// a ConfigMap.
func BenchmarkReadList(b *testing.B) {
	data, err := os.ReadFile("testdata/nginx-mid-extra.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadObjects(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
