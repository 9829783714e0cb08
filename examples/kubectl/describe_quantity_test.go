package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/rollout"
	core "k8s.io/api/core/v1"
	"k8s.io/kubectl/pkg/describe"
)

// quantityForms are quantity texts in the forms the resource package
// parses differently: canonical and not, fractions of binary suffixes
// (kept as arbitrary-precision decimals), values below a nano unit, above
// int64 at some scale (where kubectl prints the overflowed number),
// capped binary values, and negative values (where the package's rounding
// depends on how it keeps the value).
var quantityForms = []string{
	"0", "1", "100m", "1500m", "1.5", "0.5", ".5", "5.", "+5", "+0.1Ki", "-0.0015Ki", "-9Ei", "-1e30", "0.", "-", "00012", "1.5Gi", "0.1Ki", "0.0015Ki", "3Mi", "0.3Mi",
	"-1", "-1500m", "-0.1Ki", "-0.0001Ki", "-2.5", "7n", "1e3", "2e-3", "1E", "12345678u", "1e-10", "0.0000000001",
	"1.000000001", "1k", "1M", "1Ei", "8Ei", "9Ei", "999999999999999999", "9223372036854775807", "9E", "1e30",
}

// TestDescribeTemplateQuantities compares the environment variables from
// resource fields that rollout.DescribeTemplate resolves with the ones
// kubectl's DescribePodTemplate resolves, on templates decoded from JSON
// as kubectl decodes what the API server sends, for every pair of
// quantityForms as the container's request or limit and as the divisor,
// for cpu (read in millis), memory and huge pages.
func TestDescribeTemplateQuantities(t *testing.T) {
	resources := []string{"requests.cpu", "limits.cpu", "limits.memory", "requests.hugepages-2Mi", "limits.ephemeral-storage"}
	compared := 0
	for _, amount := range quantityForms {
		for _, divisor := range append([]string{""}, quantityForms...) {
			for _, r := range resources {
				ref := map[string]any{"resource": r}
				if divisor != "" {
					ref["divisor"] = divisor
				}
				env, err := json.Marshal(map[string]any{"name": "E", "valueFrom": map[string]any{"resourceFieldRef": ref}})
				if err != nil {
					t.Fatal(err)
				}
				spec := fmt.Sprintf(`{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":%[1]q,"hugepages-2Mi":%[1]q},"limits":{"cpu":%[1]q,"memory":%[1]q,"ephemeral-storage":%[1]q}},"env":[%[2]s]}]}}`,
					amount, env)
				var tmpl core.PodTemplateSpec
				if err := json.Unmarshal([]byte(spec), &tmpl); err != nil {
					t.Fatalf("%s: %v", spec, err)
				}
				var buf bytes.Buffer
				describe.DescribePodTemplate(&tmpl, describe.NewPrefixWriter(&buf))
				want := envLines(buf.String())
				got, err := rollout.DescribeTemplate(model.PodTemplate{Spec: spec})
				if err != nil {
					t.Errorf("%s of %q, divisor %q: %v (kubectl %q)", r, amount, divisor, err, want)
					continue
				}
				if have := envLines(got); want != have {
					t.Errorf("%s of %q, divisor %q: %q; kubectl %q", r, amount, divisor, have, want)
				}
				compared++
			}
		}
	}
	t.Logf("%d states (quantity, divisor and resource triples), 0 differences", compared)
	if want := len(quantityForms) * (len(quantityForms) + 1) * len(resources); compared != want {
		t.Errorf("compared %d of %d triples", compared, want)
	}
}

// envLines returns the environment lines of a template description.
func envLines(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "      E:") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}
