package input

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
)

// decodedCost charges what the decoder keeps: the fixed size of every
// list element and pointed-to value, and the bytes of strings and of the
// values a type decodes itself; nothing for numbers, booleans, nulls and
// unknown fields (the decoder skips them, then refuses them).
func TestDecodedCost(t *testing.T) {
	pod := reflect.TypeFor[*core.Pod]()
	podSize := int64(reflect.TypeFor[core.Pod]().Size())
	container := int64(reflect.TypeFor[core.Container]().Size())
	for _, c := range []struct {
		json string
		want int64
	}{
		{`{}`, podSize},
		{`null`, 0},
		{`{"kind":"Pod"}`, podSize + 3},
		{`{"spec":{"containers":[{},{},{}]}}`, podSize + 3*container},
		{`{"spec":{"containers":[{"name":"ab","args":["","x"]}]}}`, podSize + container + 2 + 2*16 + 1},
		{`{"spec":{"containers":[{"NAME":"ab"}]}}`, podSize + container + 2}, // decoded, then refused
		{`{"spec":{"unknown":[{},{},{}],"priority":5,"hostNetwork":true}}`, podSize + int64(reflect.TypeFor[int32]().Size())},
		{`{"metadata":{"labels":{"a":"b"}}}`, podSize + 2*32 + 1 + 1},
		{`{"metadata":{"creationTimestamp":"2025-03-01T10:00:00Z"}}`, podSize + 22},
		{`{"metadata":{"name":"a\"b"}}`, podSize + 4},
		{`{"metadata":{"n\u0061me":"a"}}`, podSize + 1},
	} {
		got, err := decodedCost([]byte(c.json), pod, nil)
		require.NoError(t, err, c.json)
		assert.Equal(t, c.want, got, c.json)
	}
	for _, bad := range []string{``, `{`, `{"spec":{"containers":[{}`, `{"kind" "Pod"}`, `{"metadata":{"name":"a}}`, `[1,2`} {
		_, err := decodedCost([]byte(bad), pod, nil)
		assert.Error(t, err, bad)
	}
}

// The budget refuses no object as kubectl records it: every object of the
// recorded snapshots in testdata, compact (json.Marshal, no indentation:
// the most objects per byte), costs less than decodedFactor times its
// text. The densest, a Pod of nginx-mid-extra.json, costs 3.4 times.
func TestRecordedObjectsWithinBudget(t *testing.T) {
	files, err := filepath.Glob("../rolloutio/testdata/*")
	require.NoError(t, err)
	files = append(files, "testdata/nginx-mid-extra.json", "testdata/nginx-mid.json")
	objects := 0
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		objs, err := ReadObjects(f, Options{Single: true})
		require.NoError(t, f.Close())
		if err != nil {
			continue // not a snapshot (a restart script, an invalid case)
		}
		var all []any
		for _, l := range []any{objs.Deployments, objs.ReplicaSets, objs.Pods, objs.StatefulSets, objs.DaemonSets, objs.ControllerRevisions, objs.PVCs, objs.Nodes} {
			v := reflect.ValueOf(l)
			for i := range v.Len() {
				all = append(all, v.Index(i).Interface())
			}
		}
		for _, obj := range all {
			data, err := json.Marshal(obj)
			require.NoError(t, err)
			c, err := decodedCost(data, reflect.TypeOf(obj), nil)
			require.NoError(t, err)
			// A manifest of a few hundred bytes is the floor's to pay.
			if len(data) >= 500 {
				assert.Less(t, c, int64(decodedFactor*len(data)), "%s: %T %s", file, obj, data)
				objects++
			}
		}
	}
	require.Greater(t, objects, 50)
}

// An input whose objects would keep more than decodedFactor times its size
// (past decodedFloor) is refused before they are decoded, naming the
// object; under the floor, the same shape is read.
func TestReadRefusesHeavyObjects(t *testing.T) {
	containers := func(n int) string {
		return `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},"spec":{"containers":[` +
			strings.Repeat(`{},`, n-1) + `{}]}}]}`
	}
	n := int(decodedFloor/reflect.TypeFor[core.Container]().Size()) / 2
	objs, err := ReadObjects(strings.NewReader(containers(n)), Options{})
	require.NoError(t, err)
	require.Len(t, objs.Pods[0].Spec.Containers, n)

	_, err = ReadObjects(strings.NewReader(containers(4*n)), Options{})
	require.ErrorIs(t, err, errTooHeavy)
	assert.Contains(t, err.Error(), "items[0] (Pod ns/p): the objects would take too much memory")

	// Many small objects: refused at the one that passes the budget.
	tiny := `{"apiVersion":"apps/v1","kind":"StatefulSet"}`
	many := `{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat(tiny+",", 2*int(decodedFloor/reflect.TypeFor[apps.StatefulSet]().Size())) + tiny + `]}`
	_, err = ReadObjects(strings.NewReader(many), Options{})
	require.ErrorIs(t, err, errTooHeavy)
	assert.Contains(t, err.Error(), "(StatefulSet /): the objects would take too much memory")
}

// A YAML document that would be converted whole (not a List in block
// style) and whose nodes would take more than yamlFactor times its size
// (past yamlFloor) is refused before the conversion, with what to give
// instead; a List in block style of the same items is read.
func TestReadRefusesHeavyYAML(t *testing.T) {
	n := int(yamlFloor/yamlNodeBytes) + 1
	flow := "apiVersion: v1\nkind: List\nitems: [" + strings.Repeat("{apiVersion: v1, kind: ConfigMap},", n/4) + "]\n"
	_, err := ReadObjects(strings.NewReader(flow), Options{})
	require.ErrorIs(t, err, errYAMLTooHeavy)
	assert.Contains(t, err.Error(), "give a List with its items as a block sequence, as kubectl prints it, or JSON")

	block := "apiVersion: v1\nkind: List\nitems:\n" + strings.Repeat("- {apiVersion: v1, kind: ConfigMap}\n", n/4)
	objs, err := ReadObjects(strings.NewReader(block), Options{})
	require.NoError(t, err)
	assert.Equal(t, n/4, objs.Items)
	assert.False(t, errors.Is(err, errYAMLTooHeavy))
}

// The items of a List are read whatever the spelling of its key that the
// strict decoder accepts: an escaped "items" is the key "items".
func TestReadListEscapedItemsKey(t *testing.T) {
	objs, err := ReadObjects(strings.NewReader(`{"apiVersion":"v1","kind":"List","it\u0065ms":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}]}`), Options{})
	require.NoError(t, err)
	require.Len(t, objs.Pods, 1)
	assert.Equal(t, "a", objs.Pods[0].Name)
}
