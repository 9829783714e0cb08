package input_test

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
)

// A List as kubectl prints it converts an item at a time to the JSON of
// the whole document; a quoted scalar that goes on past an item's end is
// left to the whole conversion.
func ExampleBlockListToJSON() {
	list := "apiVersion: v1\nitems:\n- kind: Pod\n  metadata: {name: web-0}\n- kind: Pod\n  metadata: {name: web-1}\nkind: List\n"
	data, ok := input.BlockListToJSON([]byte(list), "items")
	fmt.Println(ok, string(data))
	_, ok = input.BlockListToJSON([]byte("items:\n- a: \"x\n- b\"\n"), "items")
	fmt.Println(ok)
	// Output:
	// true {"apiVersion":"v1","items":[{"kind":"Pod","metadata":{"name":"web-0"}},{"kind":"Pod","metadata":{"name":"web-1"}}],"kind":"List"}
	// false
}
