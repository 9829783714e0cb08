// Package input reads the cluster state the rolloutplan commands work on:
// the output of `kubectl get deployment,replicasets,pods -o json` or
// `-o yaml` (a v1 List), or a conformance Case of this repository
// ({"now", "deployment", "replicaSets", "pods"}, or a line of
// public-seed1.jsonl with its "case" key).
//
// # Strictness
//
// Nothing is dropped silently and nothing is guessed:
//
//   - The format is detected from the first byte that is not white space:
//     '{' is JSON, anything else YAML (converted to JSON first; a YAML
//     syntax error names its line).
//   - The input is capped at [Options.MaxBytes] (default [DefaultMaxBytes],
//     64 MiB) before anything is decoded; past the cap Read fails with
//     [ErrTooLarge] without reading further.
//   - A JSON syntax error is a [*SyntaxError] with the byte offset, line and
//     column; truncated input included.
//   - Duplicate keys, keys that match a field only case-insensitively
//     ("DEPLOYMENT" for "deployment") and unknown fields are errors
//     ([*FieldError]) naming the item and the JSON path, for example
//     `items[4] (Deployment default/web): unknown field "spec.replica"`.
//   - Items the state does not use are returned as [Ignored] groups with
//     their counts (other kinds, other namespaces, other Deployments), for
//     the command to report on standard error.
//
// With [Options.Single] a single apps/v1 Deployment object (a manifest) is
// read as a List of one, for the subcommands that review a Deployment
// before it exists.
//
// The package only decodes; choosing the Deployment and the clock is
// [Objects.Select]. A List has no clock of its own: [Selector.Latest] uses
// the latest time the state records ([LatestTime]) when none is given.
//
// Every subcommand of kubectl-rolloutplan that reads a cluster state reads
// it here, directly (next) or through package rolloutio.
package input
