// Package configrestarts is the "config-restarts" subcommand of
// kubectl-rolloutplan: it replays a script of informer events and
// restart-check ticks (the format of the recorded behaviour of the original
// kubernetes-deployment-restart-controller) through the config-change
// restart planner and prints the trace.
package configrestarts

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rolloutplan/rolloutplan/examples/appsv1/internal/cli/rolloutio"
	core "github.com/rolloutplan/rolloutplan/plan/restart"
	"github.com/rolloutplan/rolloutplan/plan/restart/replay"
)

const usage = `usage: kubectl-rolloutplan config-restarts [flags] < script.json

Replays a restart script (JSON; a line {"script": ..., "trace": ...} of a
recorded .jsonl works too) through the config-change restart planner and
prints the trace as one JSON document.

Flags:
`

// Run runs the subcommand. Exit status: 0 when a trace was printed, 1 for
// unreadable input, 2 for bad flags.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("config-restarts", flag.ContinueOnError)
	original := fs.Bool("original-references", false, "track only the original controller's references (containers' envFrom and ConfigMap volumes)")
	binary := fs.Bool("include-binary-data", false, "let ConfigMap checksums cover binaryData (the original ignores it)")
	layout := fs.String("timestamp", "stamp", "restart annotation format: stamp (time.Stamp, as the original) or rfc3339")
	compat := fs.String("compat", "", "comma-separated shortfalls of the original to reproduce: recreated-config-unlinked, miss-single-update, no-retry, same-second-timestamp, or all")
	indent := fs.Bool("indent", false, "indent the JSON output")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), "\nExit codes: 0 a trace was printed; 1 unreadable input; 2 bad flags or arguments.\n")
	}
	// Help asked for goes to stdout and exits 0; a flag error prints the
	// error and the usage on stderr and exits 2 (rolloutio.ParseFlags, as
	// every subcommand).
	pos, code, stop := rolloutio.ParseFlags(fs, args, stdout)
	if stop {
		return code
	}
	if len(pos) > 0 {
		return rolloutio.BadFlag(fs, fmt.Errorf("unexpected argument %q (the script is read from standard input)", pos[0]))
	}
	opts := core.Options{OriginalReferences: *original, IncludeBinaryData: *binary}
	switch *layout {
	case "stamp":
	case "rfc3339":
		opts.TimestampLayout = time.RFC3339
	default:
		return rolloutio.BadFlag(fs, fmt.Errorf("-timestamp %q: want stamp or rfc3339", *layout))
	}
	c, err := parseCompat(*compat)
	if err != nil {
		return rolloutio.BadFlag(fs, fmt.Errorf("-compat: %w", err))
	}
	opts.Compat = c

	in, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "config-restarts: reading standard input: %v\n", err)
		return 1
	}
	s, err := parse(in)
	if err != nil {
		fmt.Fprintf(stderr, "config-restarts: %v\n", err)
		return 1
	}
	tr, err := replay.Run(s, replay.Options{Planner: opts})
	if err != nil {
		fmt.Fprintf(stderr, "config-restarts: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	if *indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(tr); err != nil {
		fmt.Fprintf(stderr, "config-restarts: writing the trace: %v\n", err)
		return 1
	}
	return 0
}

// parse reads a script, or the script of a recorded line.
func parse(in []byte) (replay.Script, error) {
	var line struct {
		Script json.RawMessage `json:"script"`
	}
	if err := json.Unmarshal(in, &line); err == nil && len(line.Script) > 0 {
		return replay.ParseScript(line.Script)
	}
	return replay.ParseScript(in)
}

func parseCompat(v string) (core.Compat, error) {
	var c core.Compat
	if v == "" {
		return c, nil
	}
	for _, name := range strings.Split(v, ",") {
		switch strings.TrimSpace(name) {
		case "recreated-config-unlinked":
			c.RecreatedConfigUnlinked = true
		case "miss-single-update":
			c.MissSingleUpdate = true
		case "no-retry":
			c.NoRetry = true
		case "same-second-timestamp":
			c.SameSecondTimestamp = true
		case "all":
			c = core.Compat{RecreatedConfigUnlinked: true, MissSingleUpdate: true, NoRetry: true, SameSecondTimestamp: true}
		default:
			return c, fmt.Errorf("unknown shortfall %q (want recreated-config-unlinked, miss-single-update, no-retry, same-second-timestamp or all)", name)
		}
	}
	return c, nil
}
