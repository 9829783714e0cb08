package input

import (
	"bytes"
	"testing"

	"sigs.k8s.io/yaml"
)

// BenchmarkReadList reads a List of a Deployment, 2 ReplicaSets, 5 Pods and
// a ConfigMap.
func BenchmarkReadList(b *testing.B) {
	benchRead(b, load(b, "nginx-mid-extra.json"))
}

// BenchmarkReadYAML reads the same List as YAML, one document.
func BenchmarkReadYAML(b *testing.B) {
	y, err := yaml.JSONToYAML(load(b, "nginx-mid-extra.json"))
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, y)
}

// BenchmarkReadYAMLStream reads the items of nginx-mid.json as a YAML
// stream, one document each.
func BenchmarkReadYAMLStream(b *testing.B) {
	_, ys := items(b)
	var stream []byte
	for _, y := range ys {
		stream = append(append(stream, "---\n"...), y...)
	}
	benchRead(b, stream)
}

func benchRead(b *testing.B, data []byte) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadObjects(bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
