package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
	"unsafe"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stesting "k8s.io/client-go/testing"
)

// The StatefulSet and DaemonSet rows time the real v1.36.3 controllers'
// one sync of each recorded state (the apps/v1 module's
// testdata/conformance/{statefulset,daemonset}/public-seed1.jsonl) against
// the apps/v1 adapter's Syncers and uncached SyncStatefulSet and
// SyncDaemonSet on the same cases.

// workloadCase is one recorded sync of a StatefulSet or DaemonSet: the case
// and the meta the sanity checks read.
type workloadCase[C any] struct {
	ID, Category string
	Case         C
	// Unorder: the recorded write order varies between upstream's runs
	// (parallel creates and deletes); compare writes as multisets.
	Unorder bool
	// Choices: upstream picked different objects on different runs (a Go
	// map walk): exactly K of the writes come from each of Pools.
	Choices bool
	Pools   []writePool
}

// writePool is one group of the recording's choices: K of the writes come
// from Keys (workloadWriteKey of the recorded writes).
type writePool struct {
	K    int
	Keys []string
}

// loadWorkloadCases reads the 200 recordings of file.
func loadWorkloadCases[C any](tb testing.TB, file string) []workloadCase[C] {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []workloadCase[C]
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l struct {
			Case C `json:"case"`
			Meta struct {
				ID                      string `json:"id"`
				Category                string `json:"category"`
				OrderNondeterministic   bool   `json:"orderNondeterministic"`
				ContentNondeterministic bool   `json:"contentNondeterministic"`
				Choices                 struct {
					Actions []struct {
						K    int `json:"k"`
						Pool []struct {
							Verb        string         `json:"verb"`
							Resource    string         `json:"resource"`
							Subresource string         `json:"subresource"`
							Name        string         `json:"name"`
							Object      map[string]any `json:"object"`
						} `json:"pool"`
					} `json:"actions"`
				} `json:"choices"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatal(err)
		}
		wc := workloadCase[C]{ID: l.Meta.ID, Category: l.Meta.Category, Case: l.Case,
			Unorder: l.Meta.OrderNondeterministic, Choices: l.Meta.ContentNondeterministic}
		for _, g := range l.Meta.Choices.Actions {
			wp := writePool{K: g.K}
			for _, a := range g.Pool {
				var obj any
				if a.Object != nil {
					obj = a.Object
				}
				wp.Keys = append(wp.Keys, workloadWriteKey(a.Verb, a.Resource, a.Subresource, a.Name, obj, false))
			}
			wc.Pools = append(wc.Pools, wp)
		}
		out = append(out, wc)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) != 200 {
		tb.Fatalf("%s holds %d cases, want 200", file, len(out))
	}
	return out
}

// caseAPI answers a fake clientset's requests as the API server holding a
// case's objects would, without storing any write (a dry run, so that every
// sync decides on the recorded state): get returns a copy of the object;
// create fails with AlreadyExists when the name is taken (a pod or claim of
// the case, a ControllerRevision on a hash collision) and otherwise returns
// what was sent (a generateName stays unnamed); update returns what was
// sent; patch returns the object as read; delete succeeds; any of them on an
// object the case lacks (create aside) fails with NotFound. It remembers
// which of the requests since the last reset it rejected.
type caseAPI struct {
	objects  map[string]runtime.Object // by resource/namespace/name
	rejected []bool                    // per request, in the fake's order
}

func newCaseAPI() *caseAPI { return &caseAPI{objects: map[string]runtime.Object{}} }

// add stores obj under resource.
func (a *caseAPI) add(resource string, obj runtime.Object) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	a.objects[resource+"/"+m.GetNamespace()+"/"+m.GetName()] = obj
	return nil
}

func (a *caseAPI) reset() { a.rejected = a.rejected[:0] }

// react is the fake clientset's first reactor for every verb: the fake
// holds its lock while it runs its reactors, so requests reach it one at a
// time, in the order of the fake's Actions.
func (a *caseAPI) react(act k8stesting.Action) (bool, runtime.Object, error) {
	i := len(a.rejected)
	a.rejected = append(a.rejected, false)
	res := act.GetResource()
	gr := schema.GroupResource{Group: res.Group, Resource: res.Resource}
	prefix := res.Resource + "/" + act.GetNamespace() + "/"
	fail := func(err error) (bool, runtime.Object, error) {
		a.rejected[i] = true
		return true, nil, err
	}
	switch act.GetVerb() {
	case "get":
		act := act.(k8stesting.GetAction)
		if obj, ok := a.objects[prefix+act.GetName()]; ok {
			return true, obj.DeepCopyObject(), nil
		}
		return fail(apierrors.NewNotFound(gr, act.GetName()))
	case "create":
		obj := act.(k8stesting.CreateAction).GetObject()
		m, err := meta.Accessor(obj)
		if err != nil {
			return fail(err)
		}
		if _, taken := a.objects[prefix+m.GetName()]; taken && m.GetName() != "" {
			return fail(apierrors.NewAlreadyExists(gr, m.GetName()))
		}
		return true, obj, nil
	case "update":
		obj := act.(k8stesting.UpdateAction).GetObject()
		m, err := meta.Accessor(obj)
		if err != nil {
			return fail(err)
		}
		if _, ok := a.objects[prefix+m.GetName()]; !ok {
			return fail(apierrors.NewNotFound(gr, m.GetName()))
		}
		return true, obj, nil
	case "patch":
		act := act.(k8stesting.PatchAction)
		if obj, ok := a.objects[prefix+act.GetName()]; ok {
			return true, obj.DeepCopyObject(), nil
		}
		return fail(apierrors.NewNotFound(gr, act.GetName()))
	case "delete":
		act := act.(k8stesting.DeleteAction)
		if _, ok := a.objects[prefix+act.GetName()]; ok {
			return true, nil, nil
		}
		return fail(apierrors.NewNotFound(gr, act.GetName()))
	}
	return false, nil, nil
}

// upstreamWrite is a write a controller sent and whether caseAPI rejected
// it.
type upstreamWrite struct {
	k8stesting.Action
	Rejected bool
}

// writesOf keeps the writes of the fake's actions (reads left out).
func writesOf(actions []k8stesting.Action, rejected []bool) []upstreamWrite {
	var out []upstreamWrite
	for i, act := range actions {
		switch act.GetVerb() {
		case "create", "update", "patch", "delete":
			out = append(out, upstreamWrite{Action: act, Rejected: i < len(rejected) && rejected[i]})
		}
	}
	return out
}

// fieldOf returns a pointer to the unexported field name of the struct
// *ptr points to, checking its type: the controllers keep their sync
// function, clock and expectations in unexported fields (for their own unit
// tests), and the harness must set the clock to the case's and start every
// sync with the expectations of a fresh controller.
func fieldOf[T any](ptr any, name string) (*T, error) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("%T is not a pointer to a struct", ptr)
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return nil, fmt.Errorf("%T has no field %s of type %v", ptr, name, reflect.TypeFor[T]())
	}
	return (*T)(unsafe.Pointer(f.UnsafeAddr())), nil
}
