package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// DefaultMaxBytes is the input cap when Options.MaxBytes is zero: 64 MiB,
// room for a List of some 10 000 pods.
const DefaultMaxBytes = 64 << 20

// Options tune [ReadObjects].
type Options struct {
	// MaxBytes caps the input; zero means DefaultMaxBytes.
	MaxBytes int64
	// Single also accepts one apps/v1 Deployment object (a manifest, or
	// `kubectl get deployment NAME -o json|yaml`), read as a List of one.
	Single bool
}

// Format is the detected input format.
type Format string

// The input formats.
const (
	JSON Format = "json"
	YAML Format = "yaml"
)

// Objects is every object of the input that the rolloutplan commands use.
type Objects struct {
	Format Format
	// Case reports a conformance Case; Now is its clock (zero for a List).
	Case bool
	Now  time.Time
	// Items counts the List's items (the Case's objects).
	Items       int
	Deployments []*apps.Deployment
	ReplicaSets []*apps.ReplicaSet
	Pods        []*core.Pod
	// Ignored groups the items of other kinds.
	Ignored []Ignored
}

// ReadObjects reads a List or a Case from r, strictly (see the package
// documentation). Errors are [ErrTooLarge] (wrapped), [*SyntaxError],
// [*FieldError] or a plain error saying what the input is not.
func ReadObjects(r io.Reader, opts Options) (*Objects, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading the input: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes (the cap)", ErrTooLarge, limit)
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return nil, errors.New("empty input: give `kubectl get deployment,replicasets,pods -o json` (or -o yaml) output or a conformance Case")
	}
	objs := &Objects{Format: JSON}
	if trimmed[0] != '{' {
		objs.Format = YAML
		if data, err = yaml.YAMLToJSONStrict(data); err != nil {
			return nil, fmt.Errorf("YAML input: %w", err)
		}
	}
	if err := checkSyntax(data); err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("the input is not a JSON object: %w", err)
	}
	if _, ok := top["case"]; ok { // a line of public-seed1.jsonl
		var line struct {
			Case   json.RawMessage `json:"case"`
			Expect json.RawMessage `json:"expect"`
			Meta   json.RawMessage `json:"meta"`
		}
		if err := strict(data, &line, "the case line"); err != nil {
			return nil, err
		}
		return done(objs, objs.readCase(line.Case, "case"))
	}
	if _, ok := top["deployment"]; ok {
		return done(objs, objs.readCase(data, ""))
	}
	var kind string
	_ = json.Unmarshal(top["kind"], &kind)
	for k := range top {
		if strings.EqualFold(k, "items") || strings.HasSuffix(kind, "List") {
			return done(objs, objs.readList(data))
		}
	}
	if kind == "Deployment" && opts.Single {
		var apiVersion string
		_ = json.Unmarshal(top["apiVersion"], &apiVersion)
		if apiVersion != "apps/v1" {
			return nil, fmt.Errorf("the input is a Deployment of apiVersion %q; only apps/v1 is read", apiVersion)
		}
		wrapped := append(append([]byte(`{"apiVersion":"v1","kind":"List","items":[`), data...), ']', '}')
		return done(objs, objs.readList(wrapped))
	}
	if kind != "" {
		return nil, fmt.Errorf("the input is a single %s; give a List (kubectl get deployment,replicasets,pods -o json) or a conformance Case", kind)
	}
	return nil, errors.New(`the input is neither a List (no "items") nor a conformance Case (no "deployment")`)
}

func done(objs *Objects, err error) (*Objects, error) {
	if err != nil {
		return nil, err
	}
	return objs, nil
}

// checkSyntax finds the first JSON syntax error with its position, and data
// after the document.
func checkSyntax(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return newSyntaxError(data, se.Offset, se.Error())
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return newSyntaxError(data, int64(len(data)), "unexpected end of input (truncated?)")
		}
		return err
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return newSyntaxError(data, int64(len(data)-len(rest)), "data after the JSON document")
	}
	return nil
}

// strict decodes data into v: case-sensitive keys, no duplicates, no unknown
// fields. item names the object in errors.
func strict(data []byte, v any, item string) error {
	problems, err := sigsjson.UnmarshalStrict(data, v)
	if err != nil {
		return &FieldError{Item: item, Problems: []string{err.Error()}}
	}
	if len(problems) > 0 {
		fe := &FieldError{Item: item}
		for _, p := range problems {
			fe.Problems = append(fe.Problems, p.Error())
		}
		return fe
	}
	return nil
}

func (o *Objects) readCase(data []byte, path string) error {
	var c appsv1.Case
	item := "the case"
	if path != "" {
		item = path
	}
	if err := strict(data, &c, item); err != nil {
		return err
	}
	if c.Deployment == nil {
		return fmt.Errorf("%s: deployment is null", item)
	}
	for i, rs := range c.ReplicaSets {
		if rs == nil {
			return fmt.Errorf("%s: replicaSets[%d] is null", item, i)
		}
	}
	for i, p := range c.Pods {
		if p == nil {
			return fmt.Errorf("%s: pods[%d] is null", item, i)
		}
	}
	o.Case, o.Now = true, c.Now
	o.Deployments = []*apps.Deployment{c.Deployment}
	o.ReplicaSets, o.Pods = c.ReplicaSets, c.Pods
	o.Items = 1 + len(c.ReplicaSets) + len(c.Pods)
	return nil
}

func (o *Objects) readList(data []byte) error {
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   json.RawMessage   `json:"metadata"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := strict(data, &list, "the List"); err != nil {
		return err
	}
	if list.Kind != "" && !strings.HasSuffix(list.Kind, "List") {
		return fmt.Errorf("the input's kind is %q, not a List", list.Kind)
	}
	o.Items = len(list.Items)
	other := map[string]int{}
	for i, raw := range list.Items {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return &FieldError{Item: fmt.Sprintf("items[%d]", i), Problems: []string{err.Error()}}
		}
		item := fmt.Sprintf("items[%d] (%s %s/%s)", i, head.Kind, head.Metadata.Namespace, head.Metadata.Name)
		var err error
		switch {
		case head.Kind == "":
			return fmt.Errorf("items[%d]: no kind", i)
		case head.Kind == "Deployment" && head.APIVersion == "apps/v1":
			d := new(apps.Deployment)
			err = strict(raw, d, item)
			o.Deployments = append(o.Deployments, d)
		case head.Kind == "ReplicaSet" && head.APIVersion == "apps/v1":
			rs := new(apps.ReplicaSet)
			err = strict(raw, rs, item)
			o.ReplicaSets = append(o.ReplicaSets, rs)
		case head.Kind == "Pod" && head.APIVersion == "v1":
			p := new(core.Pod)
			err = strict(raw, p, item)
			o.Pods = append(o.Pods, p)
		default:
			other[head.APIVersion+" "+head.Kind]++
		}
		if err != nil {
			return err
		}
	}
	for _, key := range sortedKeys(other) {
		apiVersion, kind, _ := strings.Cut(key, " ")
		o.Ignored = append(o.Ignored, Ignored{Kind: kind, APIVersion: apiVersion, Count: other[key], Why: WhyOtherKind})
	}
	return nil
}
