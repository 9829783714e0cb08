package replay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/plan/restart"
)

// object is a decoded Kubernetes object, keys matched case-sensitively.
type object struct {
	doc  map[string]any
	ref  restart.Ref
	kind string // the object's kind as written, e.g. "ConfigMap"
}

// kindOf maps an object's kind to the planner's.
func kindOf(kind string) (restart.Kind, bool) {
	switch kind {
	case "ConfigMap":
		return restart.KindConfigMap, true
	case "Secret":
		return restart.KindSecret, true
	case "Deployment":
		return restart.KindDeployment, true
	case "StatefulSet":
		return restart.KindStatefulSet, true
	}
	return "", false
}

func decodeDoc(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if doc == nil {
		return nil, fmt.Errorf("object: want a JSON object")
	}
	return doc, nil
}

func newObject(doc map[string]any) (object, error) {
	kind, _ := doc["kind"].(string)
	k, ok := kindOf(kind)
	if !ok {
		return object{}, fmt.Errorf("object kind %q: %w (want ConfigMap, Secret, Deployment or StatefulSet)", kind, restart.ErrUnknownKind)
	}
	meta, _ := doc["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if name == "" {
		return object{}, fmt.Errorf("%s: metadata.name: must not be empty", kind)
	}
	return object{doc: doc, ref: restart.Ref{Kind: k, Namespace: ns, Name: name}, kind: kind}, nil
}

func (o object) meta() map[string]any { m, _ := o.doc["metadata"].(map[string]any); return m }

func (o object) version() string { v, _ := o.meta()["resourceVersion"].(string); return v }

func stringMap(v any, field string) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: want an object of strings", field)
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s: want a string", field, k)
		}
		out[k] = s
	}
	return out, nil
}

func bytesMap(v any, field string) (map[string][]byte, error) {
	m, err := stringMap(v, field)
	if err != nil || m == nil {
		return nil, err
	}
	out := make(map[string][]byte, len(m))
	for k, s := range m {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", field, k, err)
		}
		out[k] = b
	}
	return out, nil
}

func (o object) annotations() (map[string]string, error) {
	return stringMap(o.meta()["annotations"], "metadata.annotations")
}

// config returns the observation of a ConfigMap or Secret.
func (o object) config(includeBinary bool) (restart.Config, error) {
	meta := model.ObjectMeta{Name: o.ref.Name, Namespace: o.ref.Namespace, ResourceVersion: o.version()}
	if o.ref.Kind == restart.KindConfigMap {
		data, err := stringMap(o.doc["data"], "data")
		if err != nil {
			return restart.Config{}, err
		}
		bin, err := bytesMap(o.doc["binaryData"], "binaryData")
		if err != nil {
			return restart.Config{}, err
		}
		return restart.ConfigMapConfig(meta, data, bin, includeBinary), nil
	}
	data, err := bytesMap(o.doc["data"], "data")
	if err != nil {
		return restart.Config{}, err
	}
	sd, err := stringMap(o.doc["stringData"], "stringData")
	if err != nil {
		return restart.Config{}, err
	}
	for k, v := range sd {
		if data == nil {
			data = map[string][]byte{}
		}
		data[k] = []byte(v)
	}
	return restart.SecretConfig(meta, data), nil
}

// workload returns the observation of a Deployment or StatefulSet.
func (o object) workload() (restart.Workload, error) {
	ann, err := o.annotations()
	if err != nil {
		return restart.Workload{}, err
	}
	spec, _ := o.doc["spec"].(map[string]any)
	tmpl, _ := spec["template"].(map[string]any)
	tmeta, _ := tmpl["metadata"].(map[string]any)
	var pt model.PodTemplate
	if pt.Annotations, err = stringMap(tmeta["annotations"], "spec.template.metadata.annotations"); err != nil {
		return restart.Workload{}, err
	}
	if pt.Labels, err = stringMap(tmeta["labels"], "spec.template.metadata.labels"); err != nil {
		return restart.Workload{}, err
	}
	if tmpl != nil {
		// The model's Spec: the template without labels and annotations.
		rest := clone(tmpl).(map[string]any)
		if m, ok := rest["metadata"].(map[string]any); ok {
			delete(m, "labels")
			delete(m, "annotations")
			if len(m) == 0 {
				delete(rest, "metadata")
			}
		}
		b, err := json.Marshal(rest)
		if err != nil {
			return restart.Workload{}, fmt.Errorf("spec.template.spec: %w", err)
		}
		if pt.Spec, err = model.CanonicalJSON(b); err != nil {
			return restart.Workload{}, fmt.Errorf("spec.template.spec: %w", err)
		}
	}
	return restart.Workload{
		Ref: o.ref, Version: o.version(), Annotations: ann, Template: pt,
	}, nil
}

// clone deep-copies a JSON document.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = clone(e)
		}
		return l
	}
	return v
}

// mergePatch applies an RFC 7386 JSON merge patch to a copy of target.
func mergePatch(target, patch any) any {
	return mergeInto(clone(target), patch)
}

// mergeInto applies patch to target, which it may change: target is
// mergePatch's copy, so no level is copied twice.
func mergeInto(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return clone(patch)
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = mergeInto(t[k], v)
	}
	return t
}

// child returns doc[path...] as an object, creating it.
func child(doc map[string]any, path ...string) map[string]any {
	for _, k := range path {
		next, ok := doc[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			doc[k] = next
		}
		doc = next
	}
	return doc
}

func lookup(doc map[string]any, path ...string) (any, bool) {
	var cur any = doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func plural(k restart.Kind) string {
	return strings.ToLower(string(k)) + "s.apps"
}
