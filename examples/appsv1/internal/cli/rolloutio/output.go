package rolloutio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// Output is the -o/--output flag: "" (the subcommand's text), json or
// yaml.
type Output struct {
	Format string
	// printed counts the objects printed, for YAML's document separators.
	printed int
}

// AddFlag registers -o/--output on fs.
func (o *Output) AddFlag(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Format, "output", "o", "", "Output format: json or yaml (default: text)")
}

// Validate checks the flag's value.
func (o *Output) Validate() error {
	switch o.Format {
	case "", "json", "yaml":
		return nil
	}
	return Usagef("--output %q: want json or yaml", o.Format)
}

// Structured reports -o json or -o yaml.
func (o *Output) Structured() bool { return o.Format != "" }

// Print writes v as kubectl's printers write an object: JSON indented by
// four spaces, or YAML, documents after the first preceded by "---". The
// JSON leaves <, > and & as they are.
func (o *Output) Print(w io.Writer, v any) error { return o.print(w, v, false) }

// PrintObject writes a Kubernetes object exactly as kubectl's -o json|yaml
// printers write it: Print, with the JSON's <, > and & escaped as
// json.MarshalIndent escapes them.
func (o *Output) PrintObject(w io.Writer, v any) error { return o.print(w, v, true) }

func (o *Output) print(w io.Writer, v any, escapeHTML bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	enc.SetIndent("", "    ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("printing: %w", err)
	}
	data := buf.Bytes()
	if o.Format == "yaml" {
		y, err := yaml.JSONToYAML(data)
		if err != nil {
			return fmt.Errorf("printing: %w", err)
		}
		if o.printed > 0 {
			y = append([]byte("---\n"), y...)
		}
		data = y
	}
	o.printed++
	_, err := w.Write(data)
	return err
}
