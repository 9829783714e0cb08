package restart

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const allKindsSpec = `{
 "initContainers":[{"name":"init","envFrom":[{"configMapRef":{"name":"init-cm"}}]}],
 "containers":[{"name":"main",
   "envFrom":[{"configMapRef":{"name":"both-cm"},"secretRef":{"name":"both-secret"}},{"secretRef":{"name":"env-secret"}},{"configMapRef":{"name":"vol-cm"}}],
   "env":[{"name":"A","valueFrom":{"configMapKeyRef":{"name":"key-cm","key":"a"}}},{"name":"B","valueFrom":{"secretKeyRef":{"name":"key-secret","key":"b"}}},{"name":"C","value":"x"}]}],
 "volumes":[{"name":"v1","configMap":{"name":"vol-cm"}},{"name":"v2","secret":{"secretName":"vol-secret"}},
   {"name":"v3","projected":{"sources":[{"configMap":{"name":"proj-cm"}},{"secret":{"name":"proj-secret"}},{"serviceAccountToken":{"path":"t"}}]}},
   {"name":"v4","emptyDir":{}}]}`

func names(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.String())
	}
	return out
}

func TestReferences(t *testing.T) {
	for _, tc := range []struct {
		name     string
		spec     string
		original bool
		want     []string
		skips    int
	}{{
		// Default: every place users expect a restart from, each once.
		name: "default", spec: allKindsSpec,
		want: []string{"configmap/ns/both-cm", "configmap/ns/init-cm", "configmap/ns/key-cm", "configmap/ns/proj-cm", "configmap/ns/vol-cm",
			"secret/ns/both-secret", "secret/ns/env-secret", "secret/ns/key-secret", "secret/ns/proj-secret", "secret/ns/vol-secret"},
	}, {
		// The original (configNamesFromTemplate): containers' envFrom with
		// configMapRef winning over secretRef, and ConfigMap volumes; sorted,
		// duplicates kept.
		name: "original", spec: allKindsSpec, original: true,
		want: []string{"configmap/ns/both-cm", "configmap/ns/vol-cm", "configmap/ns/vol-cm", "secret/ns/env-secret"},
	}, {
		name: "empty spec", spec: ``, want: nil,
	}, {
		name: "null spec", spec: `null`, want: nil,
	}, {
		name: "no containers", spec: `{}`, want: nil,
	}, {
		// A reference without a name is skipped with a reason by default;
		// the original keeps the empty name.
		name: "no name", spec: `{"volumes":[{"name":"v","configMap":{}}]}`, want: nil, skips: 1,
	}, {
		name: "no name original", spec: `{"volumes":[{"name":"v","configMap":{}}]}`, original: true, want: []string{"configmap/ns/"},
	}, {
		// Keys are case-sensitive, as the API server decodes them.
		name: "case", spec: `{"Volumes":[{"name":"v","configMap":{"name":"a"}}]}`, want: nil,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, skips, err := References("ns", tc.spec, tc.original)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(names(got), tc.want) {
				t.Errorf("got %v, want %v", names(got), tc.want)
			}
			if len(skips) != tc.skips {
				t.Errorf("skips %v, want %d", skips, tc.skips)
			}
		})
	}
}

func TestReferencesMalformed(t *testing.T) {
	for _, tc := range []struct{ spec, field string }{
		{`{`, "unexpected EOF"},
		{`[]`, "spec: want an object"},
		{`{"containers":{}}`, "containers: want an array"},
		{`{"containers":[{"envFrom":[{"configMapRef":{"name":1}}]}]}`, "containers[0].envFrom[0].configMapRef.name: want a string"},
		{`{"volumes":[{"secret":"x"}]}`, "volumes[0].secret: want an object"},
		{`{"volumes":[7]}`, "volumes[0]: want an object"},
		{`{} x`, "data after"},
	} {
		_, _, err := References("ns", tc.spec, false)
		if err == nil || !errors.Is(err, ErrMalformedPodSpec) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: error %v, want one naming %q", tc.spec, err, tc.field)
		}
	}
}

// The apps/v1 adapter's Spec is the template document; its pod spec is read.
func TestReferencesTemplateDocument(t *testing.T) {
	got, _, err := References("ns", `{"metadata":{"name":"x"},"spec":{"volumes":[{"name":"v","configMap":{"name":"a"}}]}}`, false)
	if err != nil || !reflect.DeepEqual(names(got), []string{"configmap/ns/a"}) {
		t.Errorf("%v %v", names(got), err)
	}
	if _, _, err := References("ns", `{"spec":[]}`, false); err == nil || !strings.Contains(err.Error(), "spec: want an object") {
		t.Errorf("error %v", err)
	}
}
