package simulate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
)

// printResult writes res as out.Print does, byte for byte, with the
// trace's steps converted and written one at a time: printing the whole
// Result at once builds its JSON, and for YAML a tree of it, in memory,
// about 2.5 KB (JSON) or 17 KB (YAML) per unit of --max-work, beyond the
// bound the trace itself is held to. The trace is a *sim.Trace,
// *sim.StatefulSetTrace or *sim.DaemonSetTrace: a struct of Steps and
// Summary, last in the Result.
func printResult(w io.Writer, out *rolloutio.Output, res Result) error {
	tv := reflect.ValueOf(res.Trace)
	if tv.Kind() != reflect.Pointer || tv.IsNil() || tv.Elem().Kind() != reflect.Struct || tv.Elem().NumField() != 2 {
		return out.Print(w, res)
	}
	steps, summary := tv.Elem().FieldByName("Steps"), tv.Elem().FieldByName("Summary")
	if !steps.IsValid() || steps.Kind() != reflect.Slice || !summary.IsValid() {
		return out.Print(w, res)
	}
	res.Trace = nil
	head, err := indentedJSON(res, "")
	if err != nil {
		return err
	}
	if out.Format == "yaml" {
		return printYAML(w, head, steps, summary.Interface())
	}
	return printJSON(w, head, steps, summary.Interface())
}

// indentedJSON is v as Output.Print encodes it: indented by four spaces,
// lines after the first preceded by prefix, <, > and & as they are.
func indentedJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "    ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// printJSON writes the Result's JSON, head (with a null trace, its last
// field), with the trace's steps encoded one at a time at their depth.
func printJSON(w io.Writer, head []byte, steps reflect.Value, summary any) error {
	const nullTrace = "    \"trace\": null\n}"
	if !bytes.HasSuffix(head, []byte(nullTrace)) {
		return fmt.Errorf("printing: the trace is not the Result's last field")
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-len(nullTrace)])
	b.WriteString("    \"trace\": {\n")
	if steps.Len() > 0 {
		b.WriteString("        \"steps\": [\n")
		for i := range steps.Len() {
			step, err := indentedJSON(steps.Index(i).Interface(), "            ")
			if err != nil {
				return err
			}
			b.WriteString("            ")
			b.Write(step)
			if i+1 < steps.Len() {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
			if err := flush(w, &b); err != nil {
				return err
			}
		}
		b.WriteString("        ],\n")
	}
	s, err := indentedJSON(summary, "        ")
	if err != nil {
		return err
	}
	b.WriteString("        \"summary\": ")
	b.Write(s)
	b.WriteString("\n    }\n}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// printYAML writes the Result's YAML, converted from head (its JSON with a
// null trace), with the trace's steps converted one at a time. Each part
// is converted where it stands in the whole (under "trace:" and
// "steps:"), as the YAML encoder folds long strings at a column.
func printYAML(w io.Writer, head []byte, steps reflect.Value, summary any) error {
	y, err := yaml.JSONToYAML(head)
	if err != nil {
		return fmt.Errorf("printing: %w", err)
	}
	const nullTrace = "trace: null\n"
	if !bytes.HasSuffix(y, []byte(nullTrace)) {
		return fmt.Errorf("printing: the trace is not the Result's last key")
	}
	var b bytes.Buffer
	b.Write(y[:len(y)-len(nullTrace)])
	b.WriteString("trace:\n")
	if steps.Len() > 0 {
		b.WriteString("  steps:\n")
		for i := range steps.Len() {
			part, err := yamlAt(map[string]any{"steps": []any{steps.Index(i).Interface()}}, "trace:\n  steps:\n")
			if err != nil {
				return err
			}
			b.Write(part)
			if err := flush(w, &b); err != nil {
				return err
			}
		}
	}
	part, err := yamlAt(map[string]any{"summary": summary}, "trace:\n")
	if err != nil {
		return err
	}
	b.Write(part)
	_, err = w.Write(b.Bytes())
	return err
}

// yamlAt is the YAML of {"trace": trace} without its first lines, head.
func yamlAt(trace map[string]any, head string) ([]byte, error) {
	j, err := json.Marshal(map[string]any{"trace": trace})
	if err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	part, ok := bytes.CutPrefix(y, []byte(head))
	if !ok {
		return nil, fmt.Errorf("printing: unexpected YAML %.40q", y)
	}
	return part, nil
}

// flush writes what b holds once it is large, so that the output is never
// held whole.
func flush(w io.Writer, b *bytes.Buffer) error {
	if b.Len() < 64<<10 {
		return nil
	}
	_, err := w.Write(b.Bytes())
	b.Reset()
	return err
}
