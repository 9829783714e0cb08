package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// strictServer is the API server's strict JSON decoding (the serializer of
// k8s.io/apimachinery with Strict set, as for fieldValidation=Strict).
func strictServer(t *testing.T) runtime.Decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := apps.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := core.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Strict: true})
}

// Differential: an item the reader accepts is exactly one the API server's
// strict decoder accepts, and both decode it to the same object. The items
// are the fixture's Deployment, ReplicaSet and Pod under mutations: keys
// duplicated, renamed in another case, added unknown, values retyped.
func TestStrictnessMatchesTheAPIServer(t *testing.T) {
	dec := strictServer(t)
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(load(t, "nginx-mid.json"), &list); err != nil {
		t.Fatal(err)
	}
	mutations := []struct {
		name     string
		old, new string
	}{
		{"unchanged", "", ""},
		{"duplicate name", `"name":`, `"name":"dup","name":`},
		{"duplicate label", `"labels":{`, `"labels":{"app":"x",`},
		{"upper-case key", `"spec":`, `"Spec":`},
		{"camel-case mismatch", `"namespace":`, `"nameSpace":`},
		{"unknown field", `"metadata":{`, `"metadata":{"colour":"blue",`},
		{"unknown nested field", `"spec":{`, `"spec":{"replica":4,`},
		{"string for a number", `"generation":`, `"generation":"1",`},
		{"null metadata field", `"uid":`, `"uid":null,"x":`},
	}
	checked := 0
	for i, raw := range list.Items {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			t.Fatal(err)
		}
		item := compact.String()
		for _, m := range mutations {
			mutated := item
			if m.old != "" {
				if !strings.Contains(item, m.old) {
					continue
				}
				mutated = strings.Replace(item, m.old, m.new, 1)
			}
			name := fmt.Sprintf("items[%d]/%s", i, m.name)
			objs, ours := ReadObjects(strings.NewReader(`{"kind":"List","apiVersion":"v1","items":[`+mutated+`]}`), Options{})
			theirs, _, err := dec.Decode([]byte(mutated), nil, nil)
			if (ours == nil) != (err == nil) {
				t.Errorf("%s: reader error %v, API server error %v", name, ours, err)
				continue
			}
			checked++
			if ours != nil {
				continue
			}
			var got any
			switch {
			case len(objs.Deployments) == 1:
				got = objs.Deployments[0]
			case len(objs.ReplicaSets) == 1:
				got = objs.ReplicaSets[0]
			case len(objs.Pods) == 1:
				got = objs.Pods[0]
			}
			// The server's decoder clears kind and apiVersion into TypeMeta
			// the same way; compare the objects as JSON.
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(theirs)
			if diff := cmp.Diff(string(b), string(a)); diff != "" {
				t.Errorf("%s: decoded objects differ (-server +reader):\n%s", name, diff)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d mutated items checked", checked)
	}
}
