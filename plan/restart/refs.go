package restart

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
)

// ErrMalformedPodSpec is returned (wrapped) by [References] for a pod spec
// that is not JSON or whose fields have the wrong JSON type.
var ErrMalformedPodSpec = errors.New("malformed pod spec")

// Skip records a reference [References] saw but did not track, and why.
type Skip struct {
	// Path locates the reference in the pod spec, e.g.
	// "volumes[0].configMap".
	Path string
	// Reason says why it is not tracked.
	Reason string
}

// References returns the configs a pod spec references, in the workload's
// namespace (a pod can only reference configs in its own namespace), sorted
// by full name.
//
// spec is the model's opaque PodTemplate.Spec: the JSON of the pod template
// without labels and annotations ({"metadata":…,"spec":{pod spec}}, as the
// apps/v1 adapter writes it) or of the pod spec itself (a pod spec has no
// field "spec", so the two cannot be confused). Keys are matched
// case-sensitively, as the API server decodes them. Read from the pod spec
// are:
//
//   - containers[] and initContainers[]: envFrom[].configMapRef.name,
//     envFrom[].secretRef.name, env[].valueFrom.configMapKeyRef.name and
//     env[].valueFrom.secretKeyRef.name;
//   - volumes[]: configMap.name, secret.secretName and
//     projected.sources[].configMap.name and .secret.name.
//
// Each config appears once. A reference without a name is skipped with a
// reason.
//
// With original set, only what the original controller reads is returned,
// exactly as it returns it: containers[].envFrom[] (configMapRef wins when
// both are set) and volumes[].configMap, sorted, duplicates kept, an empty
// name kept as is.
//
// A spec that is not a JSON object, or a field of the wrong JSON type, is an
// error wrapping [ErrMalformedPodSpec] that names the field.
func References(namespace, spec string, original bool) ([]Ref, []Skip, error) {
	if spec == "" {
		return nil, nil, nil
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader([]byte(spec)))
	if err := dec.Decode(&root); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrMalformedPodSpec, err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("%w: data after the JSON document", ErrMalformedPodSpec)
	}
	w := &refWalker{ns: namespace, original: original}
	pod, ok := root.(map[string]any)
	if !ok {
		if root == nil {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("%w: spec: want an object", ErrMalformedPodSpec)
	}
	if _, ok := pod["spec"]; ok {
		// A template document: the pod spec is its "spec".
		if pod = w.object(pod, "spec", "spec"); pod == nil {
			return nil, nil, w.err
		}
	}
	w.containers(pod, "containers")
	if !original {
		w.containers(pod, "initContainers")
	}
	w.volumes(pod)
	if w.err != nil {
		return nil, nil, w.err
	}
	// The original sorts by full name. All refs share one namespace and the
	// two kinds ("configmap", "secret") differ in their first byte, so
	// comparing kind, then name, is that order without building the names.
	slices.SortStableFunc(w.refs, func(a, b Ref) int {
		return cmp.Or(strings.Compare(string(a.Kind), string(b.Kind)), strings.Compare(a.Name, b.Name))
	})
	if original {
		return w.refs, w.skips, nil
	}
	return slices.Compact(w.refs), w.skips, nil
}

type refWalker struct {
	ns       string
	original bool
	refs     []Ref
	skips    []Skip
	err      error
}

func (w *refWalker) fail(path, want string) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: %s: want %s", ErrMalformedPodSpec, path, want)
	}
}

// list returns obj[key] as a list; absent or null is an empty list.
func (w *refWalker) list(obj map[string]any, key, path string) []any {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		w.fail(path, "an array")
	}
	return l
}

// object returns obj[key] as an object; absent or null is nil.
func (w *refWalker) object(obj map[string]any, key, path string) map[string]any {
	v, ok := obj[key]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		w.fail(path, "an object")
	}
	return m
}

// str returns obj[key] as a string; absent or null is "".
func (w *refWalker) str(obj map[string]any, key, path string) string {
	v, ok := obj[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		w.fail(path, "a string")
	}
	return s
}

// elems yields the objects of the list obj[key] with their paths
// ("path[i]"), skipping null elements; a list or element of the wrong type
// fails the walk ([refWalker.list], [refWalker.elem]).
func (w *refWalker) elems(obj map[string]any, key, path string) iter.Seq2[string, map[string]any] {
	return func(yield func(string, map[string]any) bool) {
		for i, v := range w.list(obj, key, path) {
			p := fmt.Sprintf("%s[%d]", path, i)
			if o := w.elem(v, p); o != nil && !yield(p, o) {
				return
			}
		}
	}
}

func (w *refWalker) elem(v any, path string) map[string]any {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		w.fail(path, "an object")
	}
	return m
}

// add records a reference found at path in obj.key.name-field.
func (w *refWalker) add(kind Kind, obj map[string]any, nameKey, path string) {
	if obj == nil {
		return
	}
	name := w.str(obj, nameKey, path+"."+nameKey)
	if name == "" && !w.original {
		w.skips = append(w.skips, Skip{Path: path, Reason: "no " + nameKey})
		return
	}
	w.refs = append(w.refs, Ref{Kind: kind, Namespace: w.ns, Name: name})
}

func (w *refWalker) containers(pod map[string]any, key string) {
	for cp, co := range w.elems(pod, key, key) {
		for ep, eo := range w.elems(co, "envFrom", cp+".envFrom") {
			cm := w.object(eo, "configMapRef", ep+".configMapRef")
			sec := w.object(eo, "secretRef", ep+".secretRef")
			w.add(KindConfigMap, cm, "name", ep+".configMapRef")
			if cm == nil || !w.original {
				w.add(KindSecret, sec, "name", ep+".secretRef")
			}
		}
		if w.original {
			continue
		}
		for ep, eo := range w.elems(co, "env", cp+".env") {
			vf := w.object(eo, "valueFrom", ep+".valueFrom")
			if vf == nil {
				continue
			}
			w.add(KindConfigMap, w.object(vf, "configMapKeyRef", ep+".valueFrom.configMapKeyRef"), "name", ep+".valueFrom.configMapKeyRef")
			w.add(KindSecret, w.object(vf, "secretKeyRef", ep+".valueFrom.secretKeyRef"), "name", ep+".valueFrom.secretKeyRef")
		}
	}
}

func (w *refWalker) volumes(pod map[string]any) {
	for vp, vo := range w.elems(pod, "volumes", "volumes") {
		w.add(KindConfigMap, w.object(vo, "configMap", vp+".configMap"), "name", vp+".configMap")
		if w.original {
			continue
		}
		w.add(KindSecret, w.object(vo, "secret", vp+".secret"), "secretName", vp+".secret")
		pr := w.object(vo, "projected", vp+".projected")
		if pr == nil {
			continue
		}
		for sp, so := range w.elems(pr, "sources", vp+".projected.sources") {
			w.add(KindConfigMap, w.object(so, "configMap", sp+".configMap"), "name", sp+".configMap")
			w.add(KindSecret, w.object(so, "secret", sp+".secret"), "name", sp+".secret")
		}
	}
}
