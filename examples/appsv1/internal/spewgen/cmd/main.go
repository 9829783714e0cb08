// Command spewgen-appsv1 writes spew_gen.go of package appsv1: the
// reflection-free go-spew printer of core/v1.PodTemplateSpec used by
// appsv1.ComputeHash. Run it through `go generate` in examples/appsv1.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/spewgen"
)

func main() {
	fs := flag.NewFlagSet("spewgen", flag.ContinueOnError)
	out := fs.String("o", "", "output file (required)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if err == flag.ErrHelp {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "spewgen: -o is required")
		os.Exit(2)
	}
	src, err := spewgen.Generate(spewgen.PodTemplateSpecConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, "spewgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "spewgen:", err)
		os.Exit(1)
	}
}
