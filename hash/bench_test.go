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
	b.SetBytes(int64(len(appendEncoding(nil, tmpl))))
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
	buf := appendEncoding(nil, tmpl)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = appendEncoding(buf[:0], tmpl)
		h := fnv.New32a()
		h.Write(buf)
		_ = Encode(finish(h, cc))
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

// BenchmarkComputeHashTypical hashes a template the size of the conformance
// data's: one container with image, port, env, resources and the API
// server's defaults, about 600 bytes of canonical JSON.
func BenchmarkComputeHashTypical(b *testing.B) {
	spec, err := model.CanonicalJSON([]byte(`{"spec":{"containers":[{"name":"api","image":"registry.example.com/api:1.1.5",
		"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],"env":[{"name":"LOG_LEVEL","value":"info"}],
		"resources":{"requests":{"cpu":"250m","memory":"256Mi"}},"terminationMessagePath":"/dev/termination-log",
		"terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always",
		"terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}`))
	if err != nil {
		b.Fatal(err)
	}
	tmpl := model.PodTemplate{Labels: map[string]string{"app": "api"}, Spec: spec}
	b.SetBytes(int64(len(appendEncoding(nil, tmpl))))
	b.ReportAllocs()
	for b.Loop() {
		_ = ComputeHash(tmpl, nil)
	}
}
