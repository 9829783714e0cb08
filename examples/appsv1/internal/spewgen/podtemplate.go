package spewgen

import (
	"reflect"

	core "k8s.io/api/core/v1"
)

// PodTemplateSpecConfig is the configuration of package appsv1's
// spew_gen.go: the printer of core/v1.PodTemplateSpec, with hand-written
// printers for resource.Quantity (unexported fields), meta/v1.Time (a
// time.Time inside) and meta/v1.FieldsV1 (left to go-spew: its fields depend
// on a build tag).
func PodTemplateSpecConfig() Config {
	return Config{
		Package:  "appsv1",
		Root:     reflect.TypeFor[core.PodTemplateSpec](),
		RootFunc: "spewPodTemplateSpec",
		Writer:   "spewWriter",
		Lit:      "spewLit",
		LitType:  "spewText",
		Imports: map[string]string{
			"k8s.io/api/core/v1":                   "core",
			"k8s.io/apimachinery/pkg/apis/meta/v1": "metav1",
			"k8s.io/apimachinery/pkg/api/resource": "resource",
			"k8s.io/apimachinery/pkg/util/intstr":  "intstr",
			"k8s.io/apimachinery/pkg/types":        "types",
		},
		Specials: []Special{
			{PkgPath: "k8s.io/apimachinery/pkg/api/resource", Name: "Quantity", Method: "quantity"},
			{PkgPath: "k8s.io/apimachinery/pkg/apis/meta/v1", Name: "Time", Method: "metaTime"},
			// Its fields depend on a build tag (fieldsv1string): go-spew prints it.
			{PkgPath: "k8s.io/apimachinery/pkg/apis/meta/v1", Name: "FieldsV1", Method: "fieldsV1"},
		},
	}
}
