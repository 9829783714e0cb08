package configrestarts

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/input"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

// readScript reads the script file (- for standard input), at most limit
// bytes of it: one byte more is refused, as the state reader refuses a
// snapshot, before anything is decoded. A file known to be larger is
// refused without reading it; standard input is read in chunks that are
// joined only once the whole fits, so that a refusal holds no more than
// the cap.
func readScript(in io.Reader, name string, limit int64) ([]byte, error) {
	tooLarge := fmt.Errorf("%w: more than %d bytes (the cap) (raise --max-input)", input.ErrTooLarge, limit)
	what := "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("reading the script: %w", err)
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
			return nil, tooLarge
		}
		in, what = f, "the script"
	}
	if in == nil {
		return nil, nil
	}
	const chunk = 1 << 20
	var chunks [][]byte
	total := int64(0)
	r := io.LimitReader(in, limit+1)
	for {
		buf := make([]byte, min(chunk, limit+1-total))
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			chunks = append(chunks, buf[:n])
			total += int64(n)
		}
		if total > limit {
			return nil, tooLarge
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", what, err)
		}
	}
	return bytes.Join(chunks, nil), nil
}

// scriptFields and eventFields are the keys of a script and of an event,
// for the "did you mean" of an unknown key; lineFields those of a line of
// a recorded .jsonl.
var (
	scriptFields = []string{"name", "comment", "gracePeriodSeconds", "echoDelaySeconds", "ignoredErrors", "events"}
	eventFields  = []string{"at", "op", "object", "tombstone", "replace", "resource", "error"}
	lineFields   = []string{"name", "script", "trace"}
)

// seen records that a key is present, and its raw value (a slice of the
// input, not a copy), without decoding it.
type seen struct {
	set bool
	raw []byte
}

func (s *seen) UnmarshalJSON(b []byte) error {
	s.set, s.raw = true, b
	return nil
}

func (s seen) null() bool { return s.set && string(s.raw) == "null" }

// noop checks JSON syntax only.
type noop struct{}

func (*noop) UnmarshalJSON([]byte) error { return nil }

// badf is a script error: replay.ErrBadScript with what is wrong.
func badf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{replay.ErrBadScript}, args...)...)
}

// parse reads a script, or the script of a recorded line, in JSON or YAML,
// as strictly as the state reader reads a snapshot: a repeated key, a key
// that matches a field only when case is ignored, an unknown key, a null
// or empty script, a null event and a key an event's op does not read are
// errors naming the key's path (events[3].op). A Kubernetes object or
// List is refused with what was expected.
func parse(in []byte) (replay.Script, error) {
	trimmed := bytes.TrimSpace(in)
	if len(trimmed) == 0 {
		return replay.Script{}, errors.New("empty script: give a restart script (see --help for its format)")
	}
	data := trimmed
	if trimmed[0] != '{' {
		// A second YAML document would be dropped by the conversion.
		for i, line := range bytes.Split(trimmed, []byte("\n")) {
			if i > 0 && bytes.HasPrefix(line, []byte("---")) {
				return replay.Script{}, errors.New("the input has several YAML documents: a restart script is one document with \"events\" (see --help)")
			}
		}
		// A script an event at a time when it can, for memory (the same
		// JSON); anything else, and every error, whole.
		j, ok := input.BlockListToJSON(trimmed, "events")
		if !ok {
			var err error
			if j, err = yaml.YAMLToJSONStrict(trimmed); err != nil {
				return replay.Script{}, yamlError(err)
			}
		}
		data = j
	}
	if err := json.Unmarshal(data, &noop{}); err != nil {
		return replay.Script{}, syntaxError(data, err)
	}
	switch data[0] {
	case '{':
	case 'n':
		return replay.Script{}, errors.New(`the script is null: give a restart script, {"events": [...]} (see --help for its format)`)
	default:
		return replay.Script{}, fmt.Errorf(`the script is a %s, not an object: give a restart script, {"events": [...]} (see --help for its format)`, jsonType(data[0]))
	}
	// Which kind of document it is, by its keys (matched exactly).
	var head struct {
		Events seen `json:"events"`
		Script seen `json:"script"`
		Kind   seen `json:"kind"`
	}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, &head); err != nil {
		return replay.Script{}, badf("%v", err)
	}
	switch {
	case head.Events.set:
		return decodeScript(data, "")
	case head.Script.set: // a line of a recorded .jsonl
		var line struct {
			Name   string `json:"name"`
			Script seen   `json:"script"`
			Trace  seen   `json:"trace"`
		}
		if err := strict(data, &line, "", lineFields); err != nil {
			return replay.Script{}, err
		}
		if line.Script.null() {
			return replay.Script{}, badf(`script: null: a recorded line holds the script under "script"`)
		}
		if c := line.Script.raw[0]; c != '{' {
			return replay.Script{}, badf("script: a %s, not an object", jsonType(c))
		}
		return decodeScript(line.Script.raw, "script.")
	case head.Kind.set:
		var kind string
		_ = json.Unmarshal(head.Kind.raw, &kind)
		if kind != "" {
			return replay.Script{}, fmt.Errorf("the input is a Kubernetes %s, not a restart script: a script lists edits in time, {\"events\": [{\"at\": 0, \"op\": \"update\", \"object\": {...the %s...}}, {\"at\": 5, \"op\": \"tick\"}, ...]} (see --help)", kind, kind)
		}
	}
	// No "events": a key written otherwise is named first.
	var s replay.Script
	if err := strict(data, &s, "", scriptFields); err != nil {
		return replay.Script{}, err
	}
	return replay.Script{}, errors.New(`the input is not a restart script: it has no "events" (see --help for the format)`)
}

// decodeScript decodes a script object strictly; prefix is the path of the
// script in the input ("script." in a recorded line).
func decodeScript(data []byte, prefix string) (replay.Script, error) {
	var s replay.Script
	if err := strict(data, &s, prefix, scriptFields); err != nil {
		return replay.Script{}, err
	}
	switch {
	case s.Events == nil:
		return replay.Script{}, badf("%sevents: null: a script lists at least one event", prefix)
	case len(s.Events) == 0:
		return replay.Script{}, badf("%sevents: empty: a script lists at least one event", prefix)
	}
	for i, e := range s.Events {
		path := fmt.Sprintf("%sevents[%d]", prefix, i)
		if e.Op == "" && nullEvent(data, i) {
			// A null decodes as an event with no op; it is named as what
			// it is.
			return replay.Script{}, badf("%s: null: an event is an object such as {\"at\": 1, \"op\": \"tick\"}", path)
		}
		if err := checkEvent(e, path); err != nil {
			return replay.Script{}, err
		}
	}
	if err := s.Validate(); err != nil {
		if prefix != "" {
			// The replayer names paths in the script.
			return replay.Script{}, fmt.Errorf("%w: %s%s", replay.ErrBadScript, prefix, strings.TrimPrefix(err.Error(), replay.ErrBadScript.Error()+": "))
		}
		return replay.Script{}, err
	}
	return s, nil
}

// nullEvent reports that event i of the script data is null; the events
// are looked at as slices of data, not copies.
func nullEvent(data []byte, i int) bool {
	var raw struct {
		Events []seen `json:"events"`
	}
	if sigsjson.UnmarshalCaseSensitivePreserveInts(data, &raw) != nil || i >= len(raw.Events) {
		return false
	}
	return string(raw.Events[i].raw) == "null"
}

// opKeys are the keys each op reads beyond "at" and "op"; a key another op
// reads would be ignored, so it is refused.
var opKeys = map[string][]string{
	"update":      {"object", "replace"},
	"delete":      {"object", "tombstone"},
	"failPatches": {"resource", "error"},
}

// checkEvent refuses what the replay would ignore in an event: a key its
// op does not read, and an object that is not a JSON object or repeats a
// key.
func checkEvent(e replay.Event, path string) error {
	present := map[string]bool{
		"object":    e.Object != nil,
		"tombstone": e.Tombstone,
		"replace":   e.Replace,
		"resource":  e.Resource != "",
		"error":     e.Error != nil,
	}
	for _, key := range []string{"object", "tombstone", "replace", "resource", "error"} {
		if present[key] && !contains(opKeys[e.Op], key) && knownOp(e.Op) {
			return badf("%s.%s: op %q does not read it (only %s)", path, key, e.Op, readers(key))
		}
	}
	if e.Object == nil {
		return nil
	}
	if c := bytes.TrimLeft(e.Object, " \t\r\n"); len(c) == 0 || c[0] != '{' {
		return badf("%s.object: want a ConfigMap, Secret, Deployment or StatefulSet object, not %s", path, jsonWhat(c))
	}
	var doc map[string]any
	problems, err := sigsjson.UnmarshalStrict(e.Object, &doc)
	if err != nil {
		return badf("%s.object: %v", path, err)
	}
	if len(problems) > 0 {
		return fieldProblems(problems, path+".object.", nil)
	}
	return nil
}

func knownOp(op string) bool {
	switch op {
	case "update", "delete", "tick", "failPatches", "stop", "kill", "start":
		return true
	}
	return false
}

// readers says which ops read key: "update and delete".
func readers(key string) string {
	var ops []string
	for _, op := range []string{"update", "delete", "failPatches"} {
		if contains(opKeys[op], key) {
			ops = append(ops, op)
		}
	}
	return strings.Join(ops, " and ") + " read it"
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// strict decodes data into v: keys matched exactly, no key twice, no
// unknown key. prefix is the path of data in the input; fields are the
// keys v has, for the "did you mean" of an unknown one.
func strict(data []byte, v any, prefix string, fields []string) error {
	problems, err := sigsjson.UnmarshalStrict(data, v)
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return badf("%s%s: want %s, not %s", prefix, eventPath(data, te.Field), goTypeWords(te.Type.String()), valueWords(te.Value))
		}
		return badf("%v", err)
	}
	if len(problems) > 0 {
		return fieldProblems(problems, prefix, fields)
	}
	return nil
}

// fieldProblems words the strict decoder's problems with their paths:
// "events[3].op: duplicate key", "Events: unknown field (did you mean
// "events"?)". At most three are named.
func fieldProblems(problems []error, prefix string, fields []string) error {
	var msgs []string
	for _, p := range problems {
		var fe sigsjson.FieldError
		if !errors.As(p, &fe) {
			msgs = append(msgs, p.Error())
			continue
		}
		path := fe.FieldPath()
		switch {
		case strings.HasPrefix(p.Error(), "duplicate field"):
			msgs = append(msgs, prefix+path+": duplicate key")
		default:
			msgs = append(msgs, prefix+path+": unknown field"+suggest(path, fields))
		}
	}
	if len(msgs) > 3 {
		msgs = append(msgs[:3], fmt.Sprintf("and %d more", len(msgs)-3))
	}
	return badf("%s", strings.Join(msgs, "; "))
}

// suggest is the "did you mean" of an unknown key at path: the field
// spelled the same but for case, or else the fields of the object.
func suggest(path string, top []string) string {
	parent, key := "", path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		parent, key = path[:i], path[i+1:]
	}
	var fields []string
	switch {
	case parent == "":
		fields = top
	case strings.HasPrefix(parent, "events[") && strings.HasSuffix(parent, "]") && !strings.Contains(parent, "."):
		fields = eventFields
	default:
		return ""
	}
	for _, f := range fields {
		if strings.EqualFold(f, key) {
			return fmt.Sprintf(" (did you mean %q?)", f)
		}
	}
	return " (the keys are " + strings.Join(fields, ", ") + ")"
}

// eventPath puts the index of the event back into the path of a type
// error, which the decoder gives as "events.at": the events are decoded
// one by one (each a slice of data, not a copy) until one fails.
func eventPath(data []byte, field string) string {
	rest, ok := strings.CutPrefix(field, "events.")
	if !ok {
		return field
	}
	var raw struct {
		Events []seen `json:"events"`
	}
	if sigsjson.UnmarshalCaseSensitivePreserveInts(data, &raw) != nil {
		return field
	}
	for i, e := range raw.Events {
		var ev replay.Event
		if sigsjson.UnmarshalCaseSensitivePreserveInts(e.raw, &ev) != nil {
			return fmt.Sprintf("events[%d].%s", i, rest)
		}
	}
	return field
}

// valueWords names the JSON value a type error found: "a string".
func valueWords(v string) string {
	switch kind, _, _ := strings.Cut(v, " "); kind {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "bool":
		return "true or false"
	case "array":
		return "a list"
	case "object":
		return "an object"
	}
	return v
}

// goTypeWords names a Go type of the script's fields as JSON does.
func goTypeWords(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.Contains(t, "float") || strings.Contains(t, "int"):
		return "a number"
	case strings.Contains(t, "string"):
		return "a string"
	case t == "bool":
		return "true or false"
	}
	return "an object"
}

// jsonType names the JSON type of a value by its first byte.
func jsonType(c byte) string {
	switch c {
	case '[':
		return "list"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '{':
		return "object"
	}
	return "number"
}

func jsonWhat(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	if v[0] == 'n' {
		return "null"
	}
	return "a JSON " + jsonType(v[0])
}

// syntaxError locates a JSON syntax error in data by line and column.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return badf("%v", err)
	}
	// The decoder's offset counts the bytes read up to and including the
	// one in error: its 1-based position.
	off := min(max(se.Offset, 1), int64(len(data)))
	before := data[:off-1]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return badf("JSON syntax error at byte %d (line %d, column %d): %v", off, line, col, se)
}

// yamlError words a YAML conversion error: a repeated key is named as
// such, with its line.
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	if i := strings.Index(msg, "already set in map"); i >= 0 {
		// "yaml: unmarshal errors:\n  line 4: key \"op\" already set in map"
		lines := strings.Split(msg, "\n")
		var dups []string
		for _, l := range lines[1:] {
			l = strings.TrimSpace(l)
			if where, what, ok := strings.Cut(l, ": key "); ok {
				dups = append(dups, fmt.Sprintf("YAML %s: key %s: duplicate key", where, strings.TrimSuffix(what, " already set in map")))
			}
		}
		if len(dups) > 0 {
			return badf("%s", strings.Join(dups, "; "))
		}
	}
	return fmt.Errorf("the script is neither JSON nor YAML: %s", msg)
}
