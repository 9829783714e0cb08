package input

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strings"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// DefaultMaxBytes is the input cap when Options.MaxBytes is zero: 64 MiB,
// room for a List of some 10 000 pods.
const DefaultMaxBytes = 64 << 20

// Options tune [ReadObjects].
type Options struct {
	// MaxBytes caps the input; zero means DefaultMaxBytes.
	MaxBytes int64
	// Single also accepts an input of one apps/v1 Deployment, StatefulSet
	// or DaemonSet object (a manifest, or `kubectl get deployment NAME -o
	// json|yaml`), read as a List of one. An input of several documents is read the same with or
	// without Single (each document a List or an object, a manifest file
	// with a Service and a Deployment included): [Objects.Select] then needs
	// exactly one Deployment, or the one it names, lists several that match
	// in its error, and reports the other kinds as [Ignored].
	Single bool
}

// giveInput says what the input may be, in the words of kubectl users.
const giveInput = "give a Deployment, StatefulSet or DaemonSet manifest, or what 'kubectl get deployment NAME -o yaml', 'kubectl get deployment,replicasets,pods -o yaml' or 'kubectl get statefulset,controllerrevisions,pods -o yaml' prints"

const emptyInput = "empty input: " + giveInput

// Format is the detected input format.
type Format string

// The input formats.
const (
	JSON Format = "json"
	YAML Format = "yaml"
)

// The workload kinds a conformance Case holds (Objects.CaseKind).
const (
	KindDeployment  = "Deployment"
	KindStatefulSet = "StatefulSet"
	KindDaemonSet   = "DaemonSet"
)

// Objects is every object of the input that the rolloutplan commands use.
type Objects struct {
	Format Format
	// Case reports a conformance Case; Now is its clock (zero for a List).
	Case bool
	Now  time.Time
	// CaseKind is the workload kind of a Case: KindDeployment ({"now",
	// "deployment", ...}), KindStatefulSet ({"now", "statefulSet", ...}) or
	// KindDaemonSet ({"now", "daemonSet", ...}); "" for any other input.
	CaseKind string
	// Items counts the items of every document (a document that is a
	// single object counts one; for a Case, its objects).
	Items               int
	Deployments         []*apps.Deployment
	ReplicaSets         []*apps.ReplicaSet
	Pods                []*core.Pod
	StatefulSets        []*apps.StatefulSet
	DaemonSets          []*apps.DaemonSet
	ControllerRevisions []*apps.ControllerRevision
	PVCs                []*core.PersistentVolumeClaim
	Nodes               []*core.Node
	// Ignored groups the items of other kinds.
	Ignored []Ignored
}

// reader reads the input's objects into Objects, within the budget of
// what decoding them may keep (see decodedFactor).
type reader struct {
	*Objects
	budget *budget
}

// ReadObjects reads a List, a Case or a stream of several documents from r,
// strictly (see the package documentation). Errors are [ErrTooLarge]
// (wrapped), [*SyntaxError], [*FieldError] or a plain error saying what the
// input is not; in an input of several documents they are wrapped in a
// [*DocumentError] naming the document.
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
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return nil, errors.New(emptyInput)
	}
	size := len(data)
	docs, format, err := splitDocuments(data)
	if err != nil {
		return nil, err
	}
	// A YAML document is read from its JSON from now on: let its text go
	// (the input too is no longer referenced), for memory.
	for i := range docs {
		if !docs[i].json {
			docs[i].text = nil
		}
	}
	docs = withoutNulls(docs)
	objs := &Objects{Format: format}
	rd := &reader{Objects: objs, budget: newBudget(size)}
	other := map[string]int{}
	switch len(docs) {
	case 0:
		return nil, errors.New("empty input: only empty YAML documents and comments; " + giveInput)
	case 1:
		if err := rd.readOnly(docs[0], opts, other); err != nil {
			return nil, err
		}
	default:
		for _, doc := range docs {
			if err := rd.readDocument(doc, other); err != nil {
				return nil, &DocumentError{Index: doc.index, Line: doc.line, Err: err}
			}
		}
	}
	objs.ignore(other)
	return objs, nil
}

// readOnly reads the input's only document: a List, a Case, a line of
// public-seed1.jsonl or, with opts.Single, a Deployment.
func (o *reader) readOnly(doc document, opts Options, other map[string]int) error {
	top, err := doc.top("input")
	if err != nil {
		return err
	}
	data := doc.data
	if _, ok := top["case"]; ok { // a line of public-seed1.jsonl
		var line struct {
			Case   json.RawMessage `json:"case"`
			Expect json.RawMessage `json:"expect"`
			Meta   json.RawMessage `json:"meta"`
		}
		if err := strict(data, &line, "the case line"); err != nil {
			return err
		}
		var inner map[string]topValue
		if err := json.Unmarshal(line.Case, &inner); err != nil {
			return &FieldError{Item: "case", Problems: []string{err.Error()}}
		}
		return o.readCase(line.Case, "case", caseKind(inner))
	}
	if kind := caseKind(top); kind != "" {
		return o.readCase(data, "", kind)
	}
	kind := kindOf(top)
	if isList(top, kind) {
		return o.readList(data, other)
	}
	if isWorkload(kind) && opts.Single {
		var apiVersion string
		_ = json.Unmarshal(top["apiVersion"], &apiVersion)
		if apiVersion != "apps/v1" {
			return fmt.Errorf("the input is a %s of apiVersion %q; only apps/v1 is read", kind, apiVersion)
		}
	}
	if kind != "" && opts.Single {
		// One object is an item of its own, as in a stream of documents:
		// a Deployment is read, any other kind is reported as ignored.
		o.Items++
		return o.readItem(data, "", other)
	}
	if kind != "" {
		return fmt.Errorf("the input is a single %s; give a List (kubectl get deployment,replicasets,pods -o json)", kind)
	}
	return errors.New(`the input is not a Kubernetes object or List: it has no "kind"`)
}

// readDocument reads one document of a stream of several: a List or a
// single object, whose items join the state. Null YAML documents ("~",
// null) were left out before (see withoutNulls), as kubectl skips them.
func (o *reader) readDocument(doc document, other map[string]int) error {
	top, err := doc.top("document")
	if err != nil {
		return err
	}
	data := doc.data
	if _, ok := top["case"]; ok {
		return errors.New("a line of public-seed1.jsonl (a \"case\" key) is only valid as the only document of the input")
	}
	if kind := caseKind(top); kind != "" {
		return fmt.Errorf("a conformance Case (a %q key) is only valid as the only document of the input", caseKeys[kind])
	}
	kind := kindOf(top)
	switch {
	case isList(top, kind):
		return o.readList(data, other)
	case kind == "":
		return errors.New(`the document is neither a List (no "items") nor an object (no "kind")`)
	}
	o.Items++
	return o.readItem(data, "", other)
}

// top is the document's error from its conversion to JSON, or its keys;
// what names it when it is not a JSON object ("input", "document").
func (d document) top(what string) (map[string]topValue, error) {
	if d.err != nil {
		return nil, d.err
	}
	var top map[string]topValue
	if err := json.Unmarshal(d.data, &top); err != nil {
		return nil, fmt.Errorf("the %s is not a JSON object: %s", what, inDocumentTerms(err))
	}
	return top, nil
}

// topValue is the value of a key of a document's top level as the
// document's shape is told from it: a short value (a kind, an
// apiVersion) whole, a longer one (the items of a List, an object) as
// present only, for the document is decoded again from its text (a copy
// of the items took as much memory again as the input).
type topValue []byte

// maxTopValue is the longest value topValue keeps.
const maxTopValue = 1 << 10

func (v *topValue) UnmarshalJSON(b []byte) error {
	if len(b) > maxTopValue {
		*v = topValue{}
		return nil
	}
	*v = append(topValue{}, b...)
	return nil
}

// caseKeys are the keys that make a document a conformance Case, by the
// Case's workload kind.
var caseKeys = map[string]string{KindDeployment: "deployment", KindStatefulSet: "statefulSet", KindDaemonSet: "daemonSet"}

// caseKind is the workload kind of a conformance Case (a document with a
// "deployment", "statefulSet" or "daemonSet" key), "" for any other
// document. A document with several of the keys is read as the first.
func caseKind(top map[string]topValue) string {
	for _, kind := range []string{KindDeployment, KindStatefulSet, KindDaemonSet} {
		if _, ok := top[caseKeys[kind]]; ok {
			return kind
		}
	}
	return ""
}

// isWorkload reports the kinds a single object may be with Options.Single.
func isWorkload(kind string) bool {
	return kind == KindDeployment || kind == KindStatefulSet || kind == KindDaemonSet
}

// kindOf is the document's kind, "" when it has none.
func kindOf(top map[string]topValue) string {
	var kind string
	_ = json.Unmarshal(top["kind"], &kind)
	return kind
}

// isList reports a List: a kind ending in "List" or an "items" key (in any
// case, for the strict decoder to refuse a mismatched one).
func isList(top map[string]topValue, kind string) bool {
	if strings.HasSuffix(kind, "List") {
		return true
	}
	for k := range top {
		if strings.EqualFold(k, "items") {
			return true
		}
	}
	return false
}

// strict decodes data into v: case-sensitive keys, no duplicates, no unknown
// fields. item names the object in errors.
func strict(data []byte, v any, item string) error {
	problems, err := sigsjson.UnmarshalStrict(data, v)
	if err != nil {
		return &FieldError{Item: item, Problems: []string{inDocumentTerms(err)}}
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

// decode decodes data into v strictly, as strict does, once the budget
// allows what it keeps.
func (o *reader) decode(data []byte, v any, item string) error {
	if err := o.budget.charge(data, v, item); err != nil {
		return err
	}
	return strict(data, v, item)
}

func (o *reader) readCase(data []byte, path, kind string) error {
	item := "the case"
	if path != "" {
		item = path
	}
	switch kind {
	case KindStatefulSet:
		return o.readStatefulSetCase(data, item)
	case KindDaemonSet:
		return o.readDaemonSetCase(data, item)
	case "":
		return fmt.Errorf("%s: not a conformance Case: it has no \"deployment\", \"statefulSet\" or \"daemonSet\"", item)
	}
	var c appsv1.Case
	if err := o.decode(data, &c, item); err != nil {
		return err
	}
	if c.Deployment == nil {
		return fmt.Errorf("%s: deployment is null", item)
	}
	if err := noNils(item, "replicaSets", c.ReplicaSets); err != nil {
		return err
	}
	if err := noNils(item, "pods", c.Pods); err != nil {
		return err
	}
	o.Case, o.Now, o.CaseKind = true, c.Now, KindDeployment
	o.Deployments = []*apps.Deployment{c.Deployment}
	o.ReplicaSets, o.Pods = c.ReplicaSets, c.Pods
	o.Items = 1 + len(c.ReplicaSets) + len(c.Pods)
	return nil
}

func (o *reader) readStatefulSetCase(data []byte, item string) error {
	var c appsv1.StatefulSetCase
	if err := o.decode(data, &c, item); err != nil {
		return err
	}
	if c.StatefulSet == nil {
		return fmt.Errorf("%s: statefulSet is null", item)
	}
	err := errors.Join(noNils(item, "pods", c.Pods), noNils(item, "controllerRevisions", c.ControllerRevisions), noNils(item, "pvcs", c.PVCs))
	if err != nil {
		return err
	}
	o.Case, o.Now, o.CaseKind = true, c.Now, KindStatefulSet
	o.StatefulSets = []*apps.StatefulSet{c.StatefulSet}
	o.Pods, o.ControllerRevisions, o.PVCs = c.Pods, c.ControllerRevisions, c.PVCs
	o.Items = 1 + len(c.Pods) + len(c.ControllerRevisions) + len(c.PVCs)
	return nil
}

func (o *reader) readDaemonSetCase(data []byte, item string) error {
	var c appsv1.DaemonSetCase
	if err := o.decode(data, &c, item); err != nil {
		return err
	}
	if c.DaemonSet == nil {
		return fmt.Errorf("%s: daemonSet is null", item)
	}
	err := errors.Join(noNils(item, "nodes", c.Nodes), noNils(item, "pods", c.Pods), noNils(item, "controllerRevisions", c.ControllerRevisions))
	if err != nil {
		return err
	}
	o.Case, o.Now, o.CaseKind = true, c.Now, KindDaemonSet
	o.DaemonSets = []*apps.DaemonSet{c.DaemonSet}
	o.Nodes, o.Pods, o.ControllerRevisions = c.Nodes, c.Pods, c.ControllerRevisions
	o.Items = 1 + len(c.Nodes) + len(c.Pods) + len(c.ControllerRevisions)
	return nil
}

// noNils refuses a null entry of a Case's list: "the case: pods[2] is
// null".
func noNils[T any](item, list string, l []*T) error {
	for i, x := range l {
		if x == nil {
			return fmt.Errorf("%s: %s[%d] is null", item, list, i)
		}
	}
	return nil
}

func (o *reader) readList(data []byte, other map[string]int) error {
	// The wrapper is checked strictly, its items left in data: each is
	// read from data in turn, not copied (a copy of every item, kept
	// until the last is read, took as much memory again as the input).
	var list struct {
		APIVersion string          `json:"apiVersion"`
		Kind       string          `json:"kind"`
		Metadata   json.RawMessage `json:"metadata"`
		Items      itemsProbe      `json:"items"`
	}
	if err := strict(data, &list, "the List"); err != nil {
		return err
	}
	if list.Kind != "" && !strings.HasSuffix(list.Kind, "List") {
		return fmt.Errorf("the input's kind is %q, not a List", list.Kind)
	}
	i := 0
	for raw, err := range listItems(data) {
		if err != nil {
			return &FieldError{Item: "the List", Problems: []string{"items: " + err.Error()}}
		}
		o.Items++
		if err := o.readItem(raw, fmt.Sprintf("items[%d]", i), other); err != nil {
			return err
		}
		i++
	}
	return nil
}

// itemsProbe checks a List's items, keeping nothing: an array or null, as
// a []json.RawMessage takes.
type itemsProbe struct{}

func (itemsProbe) UnmarshalJSON(b []byte) error {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] == '[' || bytes.Equal(b, []byte("null")) {
		return nil // nothing: the decoder has refused it already
	}
	value := map[byte]string{'{': "object", '"': "string", 't': "bool", 'f': "bool"}[b[0]]
	return &itemsTypeError{Value: cmp.Or(value, "number"), Type: reflect.TypeFor[[]json.RawMessage](), Field: "items"}
}

// itemsTypeError is the error a []json.RawMessage's decoding gives for a
// value that is not an array, as inDocumentTerms reads it (by its fields
// Value, Type and Field).
type itemsTypeError struct {
	Value string
	Type  reflect.Type
	Field string
}

func (e *itemsTypeError) Error() string {
	return fmt.Sprintf("json: cannot unmarshal %s into Go struct field .%s of type %s", e.Value, e.Field, e.Type)
}

// listItems returns the items of the List data, each a slice of data, in
// turn (an iterator: nothing is kept per item, and data is scanned in
// place, not through a json.Decoder, whose buffer grew to the largest
// item twice over), or an error where the text cannot be read. The List
// was decoded strictly before: its keys are exact and unique, and "items"
// is an array or null.
func listItems(data []byte) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		s := &scanner{b: data}
		if s.peek() != '{' {
			yield(nil, errScan)
			return
		}
		for more := s.open('{'); more; {
			key, err := s.key()
			if err != nil {
				yield(nil, err)
				return
			}
			if unquoteKey(key) == "items" && s.peek() == '[' {
				for more := s.open('['); more; {
					s.peek() // past the white space
					from := s.i
					if err := s.skip(); err != nil {
						yield(nil, err)
						return
					}
					if !yield(data[from:s.i], nil) {
						return
					}
					if more, err = s.next(); err != nil {
						yield(nil, err)
						return
					}
				}
				return
			}
			if err := s.skip(); err != nil {
				yield(nil, err)
				return
			}
			if more, err = s.next(); err != nil {
				yield(nil, err)
				return
			}
		}
	}
}

// readItem reads one object, an item of a List (where is "items[i]") or a
// document of its own (where is ""): an apps/v1 Deployment, ReplicaSet,
// StatefulSet, DaemonSet or ControllerRevision, or a v1 Pod,
// PersistentVolumeClaim or Node joins the objects, any other kind is
// counted in other.
func (o *reader) readItem(raw []byte, where string, other map[string]int) error {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return &FieldError{Item: cmp.Or(where, "the object"), Problems: []string{inDocumentTerms(err)}}
	}
	item := fmt.Sprintf("%s %s/%s", head.Kind, head.Metadata.Namespace, head.Metadata.Name)
	if where != "" {
		item = where + " (" + item + ")"
	}
	var err error
	switch {
	case head.Kind == "":
		return fmt.Errorf("%s: no kind", where)
	case head.Kind == "Deployment" && head.APIVersion == "apps/v1":
		d := new(apps.Deployment)
		err = o.decode(raw, d, item)
		o.Deployments = append(o.Deployments, d)
	case head.Kind == "ReplicaSet" && head.APIVersion == "apps/v1":
		rs := new(apps.ReplicaSet)
		err = o.decode(raw, rs, item)
		o.ReplicaSets = append(o.ReplicaSets, rs)
	case head.Kind == "Pod" && head.APIVersion == "v1":
		p := new(core.Pod)
		err = o.decode(raw, p, item)
		o.Pods = append(o.Pods, p)
	case head.Kind == "StatefulSet" && head.APIVersion == "apps/v1":
		s := new(apps.StatefulSet)
		err = o.decode(raw, s, item)
		o.StatefulSets = append(o.StatefulSets, s)
	case head.Kind == "DaemonSet" && head.APIVersion == "apps/v1":
		ds := new(apps.DaemonSet)
		err = o.decode(raw, ds, item)
		o.DaemonSets = append(o.DaemonSets, ds)
	case head.Kind == "ControllerRevision" && head.APIVersion == "apps/v1":
		r := new(apps.ControllerRevision)
		err = o.decode(raw, r, item)
		o.ControllerRevisions = append(o.ControllerRevisions, r)
	case head.Kind == "PersistentVolumeClaim" && head.APIVersion == "v1":
		c := new(core.PersistentVolumeClaim)
		err = o.decode(raw, c, item)
		o.PVCs = append(o.PVCs, c)
	case head.Kind == "Node" && head.APIVersion == "v1":
		n := new(core.Node)
		err = o.decode(raw, n, item)
		o.Nodes = append(o.Nodes, n)
	default:
		other[head.APIVersion+" "+head.Kind]++
	}
	return err
}

// ignore sets the Ignored groups of the other kinds counted.
func (o *Objects) ignore(other map[string]int) {
	for _, key := range sortedKeys(other) {
		apiVersion, kind, _ := strings.Cut(key, " ")
		o.Ignored = append(o.Ignored, Ignored{Kind: kind, APIVersion: apiVersion, Count: other[key], Why: WhyOtherKind})
	}
}
