package appsv1

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/plan"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// State is the apps/v1 snapshot one sync plans over: the Deployment, every
// ReplicaSet of its namespace, the Pods, and the controller's clock. It is
// [plan.State] with Kubernetes objects; [ToOutput] derives the writes from
// these objects, so keep them as read from the API server.
type State struct {
	Now         time.Time
	Deployment  *apps.Deployment
	ReplicaSets []*apps.ReplicaSet
	Pods        []*core.Pod
}

// Model converts the snapshot to the planner's input. Nil entries in the
// slices are an error naming their index.
func (s State) Model() (plan.State, error) {
	d, err := DeploymentToModel(s.Deployment)
	if err != nil {
		return plan.State{}, err
	}
	out := plan.State{Deployment: d, Now: s.Now}
	for i, rs := range s.ReplicaSets {
		m, err := ReplicaSetToModel(rs)
		if err != nil {
			return plan.State{}, fmt.Errorf("replicaSets[%d]: %w", i, err)
		}
		out.ReplicaSets = append(out.ReplicaSets, m)
	}
	for i, p := range s.Pods {
		m, err := PodToModel(p)
		if err != nil {
			return plan.State{}, fmt.Errorf("pods[%d]: %w", i, err)
		}
		out.Pods = append(out.Pods, m)
	}
	return out, nil
}

// Sync plans one sync of s with [plan.Sync], hashing templates the upstream
// way (applied before opts: the Deployment's template is hashed with
// [ComputeHash] from its apps/v1 form, as upstream hashes the object it
// holds), and converts the plan to apps/v1 writes with [ToOutput]. It
// returns both: the Output to apply or print, the Plan for its reasons and
// notes.
//
// The error is plan.Sync's: invalid input (a conversion error or the
// planner's validation error, whose field paths name the objects
// ([State.Locate]), with a zero Output and Plan), or the *plan.SyncError
// upstream's sync ends with, returned with the Output (whose Error is its
// message) and the Plan of the writes upstream made before it stopped,
// which are applied like any others.
//
// The planner's input is [State.Model] without the Pods' spec bodies, which
// the Deployment planner does not read. The Output and the Plan share no
// memory with the objects of s, nor with each other.
func Sync(s State, opts ...plan.Option) (Output, plan.Plan, error) {
	in, err := planInput(s)
	if err != nil {
		return Output{}, plan.Plan{}, err
	}
	return syncInput(s, in, deploymentHasher(&s.Deployment.Spec.Template, in.Deployment.Spec.Template, new(hashMemo)), opts)
}

// Case is the conformance input format of the rolloutplan repository
// (shared/conformance/README.md): the controller's clock and the objects as
// `kubectl get -o json` shows them.
type Case struct {
	Now         time.Time          `json:"now"`
	Deployment  *apps.Deployment   `json:"deployment"`
	ReplicaSets []*apps.ReplicaSet `json:"replicaSets"`
	Pods        []*core.Pod        `json:"pods"`
}

// State returns the case as a [State]. It shares the objects with c.
func (c Case) State() State {
	return State(c)
}

// ErrNoDeployment is returned (wrapped) by [StateFromList] when the list has
// no Deployment of the requested name.
var ErrNoDeployment = errors.New("no such deployment")

// StateFromList reads the JSON of a v1 List, such as the output of
// `kubectl get deployment,replicasets,pods -o json`, and returns the state of
// one Deployment at now: the Deployment named name (in namespace, when
// namespace is not empty), and the ReplicaSets and Pods of its namespace.
// Items of other kinds are ignored. An empty name selects the list's only
// Deployment. A missing, ambiguous or undecodable Deployment is an error; a
// missing one wraps [ErrNoDeployment].
func StateFromList(data []byte, namespace, name string, now time.Time) (State, error) {
	var list struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return State{}, fmt.Errorf("list: %w", err)
	}
	if list.Kind != "" && list.Kind != "List" && !strings.HasSuffix(list.Kind, "List") {
		return State{}, fmt.Errorf("list: kind is %q, not a List", list.Kind)
	}
	var (
		deployments []*apps.Deployment
		rss         []*apps.ReplicaSet
		pods        []*core.Pod
	)
	for i, raw := range list.Items {
		var head struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return State{}, fmt.Errorf("list: items[%d]: %w", i, err)
		}
		var err error
		switch head.Kind {
		case "Deployment":
			d := new(apps.Deployment)
			err = unmarshalStrict(raw, d)
			deployments = append(deployments, d)
		case "ReplicaSet":
			rs := new(apps.ReplicaSet)
			err = unmarshalStrict(raw, rs)
			rss = append(rss, rs)
		case "Pod":
			p := new(core.Pod)
			err = unmarshalStrict(raw, p)
			pods = append(pods, p)
		case "":
			err = errors.New("item has no kind")
		}
		if err != nil {
			return State{}, fmt.Errorf("list: items[%d] (%s): %w", i, head.Kind, err)
		}
	}

	var matches []*apps.Deployment
	for _, d := range deployments {
		if (name == "" || d.Name == name) && (namespace == "" || d.Namespace == namespace) {
			matches = append(matches, d)
		}
	}
	switch {
	case len(matches) == 0 && name == "":
		return State{}, fmt.Errorf("list: %w: the list has no Deployment%s", ErrNoDeployment, inNamespace(namespace))
	case len(matches) == 0:
		return State{}, fmt.Errorf("list: %w: %q%s (the list has %s)", ErrNoDeployment, name, inNamespace(namespace), names(deployments))
	case len(matches) > 1 && name == "":
		return State{}, fmt.Errorf("list: %d Deployments (%s): name one", len(matches), names(matches))
	case len(matches) > 1:
		return State{}, fmt.Errorf("list: Deployment %q exists in several namespaces (%s): name one", name, names(matches))
	}
	d := matches[0]
	s := State{Now: now, Deployment: d}
	for _, rs := range rss {
		if rs.Namespace == d.Namespace {
			s.ReplicaSets = append(s.ReplicaSets, rs)
		}
	}
	for _, p := range pods {
		if p.Namespace == d.Namespace {
			s.Pods = append(s.Pods, p)
		}
	}
	return s, nil
}

// unmarshalStrict decodes exactly one JSON document into v: anything but
// white space after it is an error (a stray "]" or "}" included, which
// json.Decoder.More lets through).
func unmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return fmt.Errorf("unexpected data after the JSON document at offset %d", dec.InputOffset())
	}
	return nil
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + ns
}

func names(ds []*apps.Deployment) string {
	if len(ds) == 0 {
		return "none"
	}
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.Namespace+"/"+d.Name)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
