package input_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
)

// A YAML List with a Deployment, a Pod of another namespace and a
// ConfigMap: the state holds the Deployment, the rest is reported.
func ExampleRead() {
	list := `
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
- apiVersion: v1
  kind: Pod
  metadata: {name: coredns-1, namespace: kube-system}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings, namespace: shop}
`
	s, ignored, err := input.Read(strings.NewReader(list), input.Options{}, input.Selector{Now: time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Deployment.Namespace+"/"+s.Deployment.Name, len(s.Pods), "pods")
	input.Report(os.Stdout, "next", ignored)

	_, _, err = input.Read(strings.NewReader(`{"kind":"List","items":[{"kind":"Deployment","apiVersion":"apps/v1","spec":{"replica":3}}]}`), input.Options{}, input.Selector{})
	fmt.Println(err)
	// Output:
	// shop/web 0 pods
	// next: ignored 2 input objects: 1 ConfigMap (v1) (not a kind rolloutplan reads), 1 Pod in namespace kube-system (other namespace)
	// items[0] (Deployment /): unknown field "spec.replica"
}

// A manifest file of several YAML documents: a Service, a Deployment and an
// empty document. The Deployment is read, the Service reported; an error
// in a document names it and its first line.
func ExampleReadObjects_documents() {
	stream := `# shop
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
--- # nothing here
`
	objs, err := input.ReadObjects(strings.NewReader(stream), input.Options{Single: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(objs.Items, "items,", len(objs.Deployments), "Deployment,", objs.Ignored[0])

	_, err = input.ReadObjects(strings.NewReader(stream+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {container: []}\n"), input.Options{})
	fmt.Println(err)
	// Output:
	// 2 items, 1 Deployment, 1 Service (v1) (not a kind rolloutplan reads)
	// document 3 (line 11): Pod /a: unknown field "spec.container"
}
