package hash_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/hash"
	"github.com/rolloutplan/rolloutplan/model"
)

func ExampleComputeHash() {
	tmpl := model.PodTemplate{
		Labels: map[string]string{"app": "nginx"},
		Spec:   `{"containers":[{"image":"nginx:1.27","name":"nginx"}]}`,
	}
	h := hash.ComputeHash(tmpl, nil)
	fmt.Println(h)
	fmt.Println(hash.ReplicaSetName("nginx", h))

	// After a hash collision the controller bumps status.collisionCount,
	// which moves the new ReplicaSet to another name. A count of 0 already
	// differs from no count at all.
	zero, one := int32(0), int32(1)
	fmt.Println(hash.ComputeHash(tmpl, &zero))
	fmt.Println(hash.ComputeHash(tmpl, &one))
	// Output:
	// 78fdb74587
	// nginx-78fdb74587
	// 6d948dc95f
	// 56d7d694db
}

func ExampleEncode() {
	// A measured ComputeHash vector: the empty template under k8s.io/api v0.36.0.
	fmt.Println(hash.Encode(4130463924))
	fmt.Println(hash.Encode(610673237)) // nine digits, nine characters
	// Output:
	// 85748b7f68
	// b54bc767c
}
