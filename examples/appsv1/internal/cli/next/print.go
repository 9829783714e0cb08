package next

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1"
)

// printPlan writes a plan (the fields of an appsv1.Output or
// StatefulSetOutput) as JSON indented by two spaces (the conformance
// Output's form), or as YAML, one write and one event at a time: a
// Parallel StatefulSet's sync creates every missing pod at once, and the
// whole document built before it is printed took some 14 KB a pod in
// JSON and 65 KB in YAML, more than planning it. The bytes are those of
// the whole Output encoded at once: each item is encoded at the depth and
// under the key it has in the document (YAML folds long strings by
// column), and the keys come in the order the whole document's encoding
// gives them (the struct's order in JSON, sorted in YAML: the same).
func printPlan[A any](w io.Writer, format string, actions []A, syncErr string, events []appsv1.Event, requeue []appsv1.Requeue) error {
	bw := bufio.NewWriter(w)
	p := &planPrinter{w: bw, yaml: format == "yaml"}
	p.begin()
	p.list("actions", len(actions), func(i int) any { return actions[i] }, actions)
	p.scalar("error", syncErr)
	p.list("events", len(events), func(i int) any { return events[i] }, events)
	if len(requeue) > 0 {
		p.list("requeue", len(requeue), func(i int) any { return requeue[i] }, requeue)
	}
	p.end()
	if p.err != nil {
		return fmt.Errorf("writing the plan: %w", p.err)
	}
	return bw.Flush()
}

// planPrinter writes the fields of a plan document in order; the first
// error stops it.
type planPrinter struct {
	w    *bufio.Writer
	yaml bool
	// fields counts the fields written, for the JSON commas.
	fields int
	buf    bytes.Buffer
	err    error
}

func (p *planPrinter) begin() {
	if !p.yaml {
		p.w.WriteString("{")
	}
}

func (p *planPrinter) end() {
	if !p.yaml {
		p.w.WriteString("\n}\n")
	}
}

// key starts a JSON field.
func (p *planPrinter) key(k string) {
	if p.fields > 0 {
		p.w.WriteString(",")
	}
	p.fields++
	p.w.WriteString("\n  ")
	p.w.Write(p.json(k, ""))
	p.w.WriteString(": ")
}

// json is v encoded as the whole document's encoder encodes it at a depth
// whose lines start with prefix, without the final newline.
func (p *planPrinter) json(v any, prefix string) []byte {
	p.buf.Reset()
	if p.err != nil {
		return nil
	}
	enc := json.NewEncoder(&p.buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if p.err = enc.Encode(v); p.err != nil {
		return nil
	}
	return bytes.TrimSuffix(p.buf.Bytes(), []byte("\n"))
}

// yamlField is the YAML of the one-field document {k: v}.
func (p *planPrinter) yamlField(k string, v any) []byte {
	doc := p.json(map[string]any{k: v}, "")
	if p.err != nil {
		return nil
	}
	var y []byte
	y, p.err = yaml.JSONToYAML(doc)
	return y
}

// scalar writes the field k, v.
func (p *planPrinter) scalar(k string, v any) {
	if p.yaml {
		p.w.Write(p.yamlField(k, v))
		return
	}
	p.key(k)
	p.w.Write(p.json(v, "  "))
}

// list writes the field k, a list of n items (item(i)) whose whole value
// is whole: an empty list is written whole (null or []), the others an
// item at a time.
func (p *planPrinter) list(k string, n int, item func(int) any, whole any) {
	if n == 0 {
		p.scalar(k, whole)
		return
	}
	if p.yaml {
		p.w.WriteString(k + ":\n")
		for i := range n {
			// The one-item list under k, less its first line (k:).
			y := p.yamlField(k, []any{item(i)})
			if _, rest, ok := bytes.Cut(y, []byte("\n")); ok {
				p.w.Write(rest)
			}
		}
		return
	}
	p.key(k)
	p.w.WriteString("[")
	for i := range n {
		if i > 0 {
			p.w.WriteString(",")
		}
		p.w.WriteString("\n    ")
		p.w.Write(p.json(item(i), "    "))
	}
	p.w.WriteString("\n  ]")
}
