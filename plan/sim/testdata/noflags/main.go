// Command noflags imports package sim and prints every flag registered on
// the default command line, one per line: importing a library must register
// none.
package main

import (
	"flag"
	"fmt"

	"github.com/rolloutplan/rolloutplan/plan/sim"
)

var _ = sim.Run

func main() {
	flag.VisitAll(func(f *flag.Flag) { fmt.Println(f.Name) })
}
