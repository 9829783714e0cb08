// Package input reads the cluster state the rolloutplan commands work on:
// the output of `kubectl get deployment,replicasets,pods -o json` or
// `-o yaml` (a v1 List; for StatefulSets and DaemonSets `kubectl get
// statefulset,controllerrevisions,pods,pvc` and `kubectl get
// daemonset,controllerrevisions,pods,nodes`), a stream of several
// documents as kubectl -f reads one, or a conformance Case of this
// repository ({"now", "deployment", "replicaSets", "pods"}, {"now",
// "statefulSet", "pods", "controllerRevisions", "pvcs"} or {"now",
// "daemonSet", "nodes", "pods", "controllerRevisions"}, or a line of a
// public-seed1.jsonl with its "case" key).
//
// The objects read are apps/v1 Deployments, ReplicaSets, StatefulSets,
// DaemonSets and ControllerRevisions, and v1 Pods, PersistentVolumeClaims
// and Nodes; [Objects.Select] chooses a Deployment's state,
// [Objects.SelectStatefulSet] and [Objects.SelectDaemonSet] the others',
// each reporting what the workload's controller does not read.
//
// # Several documents
//
// The input is split into documents the way kubectl -f splits it
// (apimachinery's YAMLOrJSONDecoder, through cli-runtime's resource
// builder):
//
//   - An input whose first byte that is not white space is '{' and that has
//     no line starting with "---" is a stream of JSON objects, one after
//     another, with or without white space between them. Anything else
//     after an object (a JSON array, null, text) is a [*SyntaxError]
//     (kubectl skips a JSON null; here it is refused).
//   - Any other input is a YAML stream, split by apimachinery's YAMLReader
//     on lines starting with "---"; only spaces and a comment may follow the
//     "---" on its line ("--- kind: List" is an error naming its line), and
//     CRLF line ends read as LF. JSON documents between "---" lines are
//     YAML too.
//   - Documents with nothing but blank lines and comments are skipped, and
//     so are documents that are YAML null ("~", "null"), as kubectl skips
//     them: neither counts as a document (a Deployment and a null document
//     are an input of one document). A "..." document end marker may be followed only by blank lines
//     and comments up to the next "---": the YAML conversion reads one
//     document and kubectl drops what follows without a word, so any
//     content the parser finds after the first document of the text
//     between two "---" lines (after "...", or a second "{...}" line) is an
//     error here. So are two keys of a mapping that are one key in JSON
//     (1 and "1", 0 and 0.0): the conversion would keep one of them by
//     Go's map order.
//   - Each document is a List (its items are read) or a single object (an
//     item of its own); the items of all documents form the state, in
//     order, and Ignored counts the other kinds of every document. A
//     conformance Case or a public-seed1.jsonl line is valid only as the
//     input's only document; in a stream it is an error that says so.
//   - With several documents, an error in the content of one is a
//     [*DocumentError] naming the document (numbered from 1, leaving out
//     the empty ones) and its first line that is not blank, a comment or
//     "---", around the item and JSON path as in a List: `document 3
//     (line 10): Deployment shop/web: unknown field "spec.replica"`. An
//     error in how the input splits into documents (a bad separator, a
//     syntax error before the first JSON object ends) names its line or
//     byte offset instead. Line numbers inside YAML errors are counted in
//     the whole input. The strict checks below apply to every document,
//     and the size cap to the whole input.
//
// An input of one document reads as before: a List, a Case, or with
// [Options.Single] an object, as a document of a stream is read (one object
// alone is refused without Single: it is a manifest, not a cluster state).
//
// # Strictness
//
// Nothing is dropped silently and nothing is guessed:
//
//   - The format is detected as above: JSON objects, or YAML (each
//     document converted to JSON first, a List's items a group at a time
//     with [BlockListToJSON] so that reading a List takes about 10 times
//     its size in memory, JSON or YAML; a YAML syntax error names its
//     line).
//   - The input is capped at [Options.MaxBytes] (default [DefaultMaxBytes],
//     64 MiB) before anything is decoded; past the cap Read fails with
//     [ErrTooLarge] without reading further.
//   - Reading takes at most about 10 times the input's size in memory,
//     whatever its shape (plus a few MB for a small input): an object
//     whose decoding would take the objects read past 4 times the input's
//     size and 4 MiB (empty containers "{}", each a 408-byte Go value for 3 bytes, or
//     thousands of objects of a kind and nothing else) is refused before
//     it is decoded, naming it, and so is a YAML document converted whole
//     (not a List in block style) of too many small nodes; what kubectl
//     prints is read.
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
// With [Options.Single] a single object (a manifest, or what `kubectl get
// deployment NAME -o yaml` prints) is read as a List of one; a Deployment,
// StatefulSet or DaemonSet must be apps/v1. A manifest file of several documents (a Service and a
// Deployment, say) reads as any stream: [Objects.Select] needs exactly one
// Deployment, or the one named, an error lists several that match, and the
// other kinds are reported as ignored. When no Deployment is found, the
// error names the ignored objects (a Deployment of another apiVersion, for
// one).
//
// The package only decodes; choosing the Deployment and the clock is
// [Objects.Select]. A List has no clock of its own: [Selector.Latest] uses
// the latest time the state records ([LatestTime]) when none is given.
//
// Every subcommand of kubectl-rolloutplan that reads a cluster state reads
// it here, directly (next) or through package rolloutio.
package input
