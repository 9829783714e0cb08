package restart_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/plan/restart"
)

func ExampleConfigMapChecksum() {
	fmt.Println(restart.ConfigMapChecksum(map[string]string{"LOG_LEVEL": "info"}, nil, false))
	fmt.Println(restart.ConfigMapChecksum(nil, nil, false) == restart.NullChecksum)
	// Output:
	// ce705679c69d8e0e
	// true
}

func ExampleParseChecksums() {
	m, err := restart.ParseChecksums(`{"secret/ns/b":"2","configmap/ns/a":"1"}`)
	fmt.Println(m, err)
	fmt.Println(restart.FormatChecksums(m))
	_, err = restart.ParseChecksums(`NOPE`)
	fmt.Println(err)
	// Output:
	// map[configmap/ns/a:1 secret/ns/b:2] <nil>
	// {"configmap/ns/a":"1","secret/ns/b":"2"}
	// malformed checksums annotation "NOPE": invalid character 'N' looking for beginning of value
}

func ExampleReferences() {
	spec := `{"containers":[{"name":"main","envFrom":[{"configMapRef":{"name":"app"}}],
	  "env":[{"name":"PW","valueFrom":{"secretKeyRef":{"name":"db","key":"pw"}}}]}],
	  "volumes":[{"name":"tls","secret":{"secretName":"tls"}}]}`
	all, _, _ := restart.References("prod", spec, false)
	orig, _, _ := restart.References("prod", spec, true)
	fmt.Println(all)
	fmt.Println(orig)
	// Output:
	// [configmap/prod/app secret/prod/db secret/prod/tls]
	// [configmap/prod/app]
}
