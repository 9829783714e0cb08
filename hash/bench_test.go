package hash

import (
	"hash/fnv"
	"os"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// realisticTemplate is a production-like pod template: a two-container pod
// spec of about 2 KB of canonical JSON, three labels and two annotations.
func realisticTemplate(tb testing.TB) model.PodTemplate {
	tb.Helper()
	raw, err := os.ReadFile("testdata/podspec.json")
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := model.CanonicalJSON(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return model.PodTemplate{
		Labels: map[string]string{
			"app.kubernetes.io/name":      "web",
			"app.kubernetes.io/component": "frontend",
			"app.kubernetes.io/version":   "2.14.3",
		},
		Annotations: map[string]string{
			"kubectl.kubernetes.io/restartedAt": "2026-03-14T09:26:53Z",
			"prometheus.io/scrape":              "true",
		},
		Spec: spec,
	}
}

func BenchmarkComputeHash(b *testing.B) {
	tmpl := realisticTemplate(b)
	cc := model.Int32Ptr(1)
	b.SetBytes(int64(len(AppendEncoding(nil, tmpl))))
	b.ReportAllocs()
	for b.Loop() {
		_ = ComputeHash(tmpl, cc)
	}
}

// BenchmarkStdlibFNV is the baseline: the same bytes through hash/fnv after
// building the encoding in a reused buffer.
func BenchmarkStdlibFNV(b *testing.B) {
	tmpl := realisticTemplate(b)
	cc := model.Int32Ptr(1)
	buf := AppendEncoding(nil, tmpl)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendEncoding(buf[:0], tmpl)
		h := fnv.New32a()
		h.Write(buf)
		_ = Encode(Finish(h, cc))
	}
}

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	var s uint32 = 3869868675
	for b.Loop() {
		_ = Encode(s)
		s++
	}
}
