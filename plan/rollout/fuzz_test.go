package rollout

import (
	"errors"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

// FuzzDescribeTemplate feeds DescribeTemplate arbitrary template documents
// and annotation values: it must not panic, must be deterministic, must
// either describe or refuse with a field error or ErrUnsupported, and its
// output must carry no raw ESC or CR (kubectl escapes them).
func FuzzDescribeTemplate(f *testing.F) {
	f.Add(`{"spec":{"containers":[{"name":"web","image":"web:1"}]}}`, "cause")
	f.Add(`{"spec":{"containers":[{"name":"a","ports":[{"containerPort":80,"protocol":"TCP","name":"http"},{"containerPort":81,"hostPort":1}],"env":[{"name":"X","value":"a\nb"},{"name":"S","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}],"livenessProbe":{"httpGet":{"port":"http","path":"/"}},"volumeMounts":[{"name":"v","mountPath":"/d","subPath":"s"}]}],"tolerations":[{"operator":"Exists"}]}}`, "\x1b[31m\r")
	f.Add(`{"spec":{"volumes":[{"name":"v"}]}}`, "")
	f.Add(`{"spec":{"containers":[{"readinessProbe":{"grpc":{"port":1}}}]}}`, strings.Repeat("x", 200))
	f.Add(`not json`, "")
	f.Add(`{"spec":{"containers":[{"livenessProbe":{"tcpSocket":{"port":5432}},"startupProbe":{"exec":{"command":["true"]}}}],"initContainers":[{"name":"i"}]}}`, "a\nb\n")
	f.Add(`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"-0.1Ki"}},"env":[{"name":"E","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"9Ei"}}}]}]}}`, "")
	f.Add(`{"spec":{"volumes":[{"name":"e","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"a":"b"}},"spec":{"volumeName":"v"}}}},{"name":"p","projected":{"sources":[{"serviceAccountToken":{}}]}}],"topologySpreadConstraints":[{"labelSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}}]}}`, "")
	f.Fuzz(func(t *testing.T, spec, annotation string) {
		tmpl := model.PodTemplate{Labels: map[string]string{"app": "x"}, Annotations: map[string]string{"a": annotation}, Spec: spec}
		out, err := DescribeTemplate(tmpl)
		again, err2 := DescribeTemplate(tmpl)
		if out != again || errText(err) != errText(err2) {
			t.Fatalf("not deterministic: %q %v / %q %v", out, err, again, err2)
		}
		if err != nil {
			var fe *model.FieldError
			if !errors.Is(err, ErrUnsupported) && !errors.As(err, &fe) {
				t.Fatalf("unexpected error %T: %v", err, err)
			}
			if out != "" {
				t.Fatalf("output with an error: %q", out)
			}
			return
		}
		if !strings.HasPrefix(out, "Pod Template:\n") || !strings.HasSuffix(out, "\n") {
			t.Fatalf("malformed: %q", out)
		}
		if strings.ContainsAny(out, "\x1b\r") {
			t.Fatalf("unescaped terminal characters: %q", out)
		}
	})
}
