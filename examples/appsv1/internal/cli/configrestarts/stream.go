package configrestarts

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

// replayScript replays s and prints its trace step by step as the replay
// makes it, so that the command's memory is the script's and the
// planner's, never the whole trace's: the summary for people, or with -o
// json|yaml the trace, byte for byte what printing the whole replay.Trace
// at once prints (TestStreamedTraceIsPrintedTrace).
//
// A first replay, keeping nothing, meets whatever error the script holds
// (an object of an unknown kind, a Secret's data that is not base64)
// before anything is printed, and gives the trace's final catalog, which
// YAML prints before the steps (its keys are sorted).
func replayScript(w io.Writer, out *rolloutio.Output, s replay.Script, o replay.Options) error {
	final, err := replay.RunFunc(s, o, func(replay.Step) error { return nil })
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	switch out.Format {
	case "":
		m := newSummary(bw, s)
		if _, err := replay.RunFunc(s, o, func(st replay.Step) error { m.step(st); return nil }); err != nil {
			return err
		}
		m.end()
	case "json":
		if err := streamJSON(bw, s, o, final); err != nil {
			return err
		}
	default:
		if err := streamYAML(bw, s, o, final); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// indentJSON is v as rolloutio.Output prints JSON (four spaces, <, > and
// & left as they are), its lines after the first indented by prefix.
func indentJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "    ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// streamJSON prints the trace {"steps": [...], "final": {...}} a step at a
// time.
func streamJSON(w *bufio.Writer, s replay.Script, o replay.Options, final *replay.Final) error {
	n := 0
	_, err := replay.RunFunc(s, o, func(st replay.Step) error {
		b, err := indentJSON(st, "        ")
		if err != nil {
			return err
		}
		if n == 0 {
			w.WriteString("{\n    \"steps\": [\n        ")
		} else {
			w.WriteString(",\n        ")
		}
		n++
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	if n == 0 {
		w.WriteString("{\n    \"steps\": null")
	} else {
		w.WriteString("\n    ]")
	}
	if final != nil {
		b, err := indentJSON(final, "    ")
		if err != nil {
			return err
		}
		w.WriteString(",\n    \"final\": ")
		w.Write(b)
	}
	_, err = w.WriteString("\n}\n")
	return err
}

// streamYAML prints the trace as YAML a step at a time: "final" first, as
// the keys of a YAML mapping are sorted, then each step as an item of
// "steps".
func streamYAML(w *bufio.Writer, s replay.Script, o replay.Options, final *replay.Final) error {
	if final != nil {
		b, err := toYAML(final)
		if err != nil {
			return err
		}
		w.WriteString("final:\n")
		writeIndented(w, b, "  ", "  ")
	}
	n := 0
	_, err := replay.RunFunc(s, o, func(st replay.Step) error {
		b, err := toYAML(st)
		if err != nil {
			return err
		}
		if n == 0 {
			w.WriteString("steps:\n")
		}
		n++
		return writeIndented(w, b, "- ", "  ")
	})
	if err != nil {
		return err
	}
	if n == 0 {
		_, err = w.WriteString("steps: null\n")
	}
	return err
}

// toYAML is v as rolloutio.Output prints YAML: its JSON converted.
func toYAML(v any) ([]byte, error) {
	j, err := indentJSON(v, "")
	if err != nil {
		return nil, err
	}
	y, err := yaml.JSONToYAML(j)
	if err != nil {
		return nil, fmt.Errorf("printing: %w", err)
	}
	return y, nil
}

// writeIndented writes the lines of b, the first after first, the others
// after rest.
func writeIndented(w *bufio.Writer, b []byte, first, rest string) error {
	for i, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if i == 0 {
			w.WriteString(first)
		} else {
			w.WriteString(rest)
		}
		if _, err := w.WriteString(line); err != nil {
			return err
		}
	}
	return nil
}
