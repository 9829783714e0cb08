package model

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// referencePodSpecErrors is the pod spec check written the plain way:
// decode the document with encoding/json and apply the same rules. It is
// what validatePodSpecDoc must agree with on every valid JSON document
// without repeated keys (encoding/json keeps the last of repeated keys, the
// walk each one it meets).
func referencePodSpecErrors(doc string, kind podSpecKind) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal([]byte(doc), &top) != nil || top == nil {
		return nil
	}
	const path = "t" // the pod spec's path, as the fuzz target passes it
	podSpec := top
	if raw, ok := top["spec"]; ok {
		podSpec = nil
		if json.Unmarshal(raw, &podSpec) != nil || podSpec == nil {
			return nil
		}
	}
	type container struct {
		Name, Image any
	}
	read := func(key string) ([]container, bool) {
		raw, ok := podSpec[key]
		if !ok || string(raw) == "null" {
			return nil, true
		}
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return nil, false
		}
		out := make([]container, len(elems))
		for i, e := range elems {
			var m map[string]any
			if json.Unmarshal(e, &m) != nil || m == nil {
				return nil, false
			}
			out[i] = container{m["name"], m["image"]}
		}
		return out, true
	}
	cs, ok1 := read("containers")
	ics, ok2 := read("initContainers")
	if !ok1 || !ok2 {
		return nil
	}
	var errs []string
	var seen []string
	check := func(list string, l []container) {
		for i, c := range l {
			p := path + "." + list + "[" + strconv.Itoa(i) + "]."
			name, _ := c.Name.(string)
			switch {
			case name == "":
				errs = append(errs, p+"name")
			case checkDNSLabel(name) != "" || slices.Contains(seen, name):
				errs = append(errs, p+"name")
			}
			if name != "" {
				seen = append(seen, name)
			}
			img, _ := c.Image.(string)
			if img == "" || (kind == podBody && strings.TrimSpace(img) != img) {
				errs = append(errs, p+"image")
			}
		}
	}
	check("containers", cs)
	check("initContainers", ics)
	if len(cs) == 0 {
		errs = append(errs, path+".containers")
	}
	if rp, ok := podSpec["restartPolicy"]; ok {
		var s string
		if json.Unmarshal(rp, &s) == nil {
			switch {
			case s == "" || s == "Always":
			case kind == workloadTemplate || (s != "OnFailure" && s != "Never"):
				errs = append(errs, path+".restartPolicy")
			}
		}
	}
	slices.Sort(errs)
	return errs
}

// FuzzPodSpecDoc compares the walk of validatePodSpecDoc with
// referencePodSpecErrors on every valid JSON document without repeated
// keys, and checks that no input makes it panic.
func FuzzPodSpecDoc(f *testing.F) {
	for _, s := range []string{
		`{"containers":[{"image":"nginx","name":"web"}]}`,
		`{"metadata":{},"spec":{"containers":[{"image":"a","name":"a"},{"image":"","name":"a"}],"initContainers":[{"name":"a"}],"restartPolicy":"Never"}}`,
		`{"containers":[{"image":" x ","name":"w\u0065b"}],"restartPolicy":"OnFailure","x":[{"y":"]}\"["}]}`,
		`{"containers":[{"name":"Web","image":"a"},{"name":"` + strings.Repeat("c", 64) + `","image":1}]}`,
		`{"spec":{}}`, `{}`, `{"containers":null}`, `{"containers":{}}`, `[]`, `{"spec":"x"}`, `{"a":"\\"}`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, doc string, pod bool) {
		kind := workloadTemplate
		if pod {
			kind = podBody
		}
		var errs fieldErrs
		validatePodSpecDoc(&errs, prefix{index: -1}, "t", doc, kind)
		if !json.Valid([]byte(doc)) || checkJSONText([]byte(doc)) != nil {
			return
		}
		var got []string
		for _, fe := range errs.list {
			got = append(got, fe.Field)
		}
		slices.Sort(got)
		require.Equal(t, referencePodSpecErrors(doc, kind), got, "doc %q", doc)
	})
}
