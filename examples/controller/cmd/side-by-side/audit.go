package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// auditPolicy logs every write, and every get and list, at the Metadata
// level (who, what, the answer's status; no bodies) and nothing else (no
// watches), one event per request: the ResponseComplete stage, the
// RequestReceived one being omitted. The reads are counted apart: they
// share a client's rate limit with the writes.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  verbs: ["create", "update", "patch", "delete", "deletecollection", "get", "list"]
- level: None
`

// auditFlags are kube-apiserver's flags for the policy in policyPath and a
// JSON log at logPath, written before each request's answer (the blocking
// mode), so that the log is complete for every request answered.
func auditFlags(policyPath, logPath string) []string {
	return []string{
		"--audit-policy-file=" + policyPath,
		"--audit-log-path=" + logPath,
		"--audit-log-format=json",
		"--audit-log-mode=blocking",
		"--audit-log-maxbackup=0",
	}
}

// auditEvent is the part of an audit.k8s.io/v1 Event a count needs.
type auditEvent struct {
	Stage     string `json:"stage"`
	Verb      string `json:"verb"`
	UserAgent string `json:"userAgent"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	RequestReceivedTimestamp time.Time `json:"requestReceivedTimestamp"`
}

// writes counts one program's writes in a window of an audit log.
type writes struct {
	// Total is the number of writes answered.
	Total int
	// Conflicts is how many were answered 409 Conflict.
	Conflicts int
	// Failed is how many were answered with another status of 400 or more.
	Failed int
	// By counts the writes by verb and resource ("update
	// replicasets/status"), conflicts included.
	By map[string]int
	// Reads is the number of gets and lists, apart from the writes.
	Reads int
}

// agentProgram is the program a User-Agent header names: client-go's
// default agent is "<program>/<version> (<os>/<arch>) kubernetes/<commit>"
// (kube-controller-manager appends "/<controller>"); the program is the
// binary's name, which hack/build-apiserver.sh may suffix with the version
// ("kube-controller-manager-v1.36.3").
func agentProgram(userAgent string) string {
	program, _, _ := strings.Cut(userAgent, "/")
	return program
}

// fromProgram says whether userAgent is program's (its name, or its name
// with a version suffix).
func fromProgram(userAgent, program string) bool {
	p := agentProgram(userAgent)
	return p == program || strings.HasPrefix(p, program+"-v")
}

// countWrites reads a JSON-lines audit log and counts the writes (and,
// apart, the reads) of program received in [since, until) (until zero: no
// end). A line that is
// not an audit event is an error naming its number; the RequestReceived
// stage, should a policy keep it, is not counted twice.
func countWrites(r io.Reader, program string, since, until time.Time) (writes, error) {
	w := writes{By: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var e auditEvent
		if err := json.Unmarshal(b, &e); err != nil {
			return w, fmt.Errorf("audit log line %d: %v", line, err)
		}
		if e.Stage == "" || e.Verb == "" || e.RequestReceivedTimestamp.IsZero() {
			return w, fmt.Errorf("audit log line %d: not an audit event (no stage, verb or requestReceivedTimestamp)", line)
		}
		if e.Stage == "RequestReceived" || !fromProgram(e.UserAgent, program) {
			continue
		}
		if e.RequestReceivedTimestamp.Before(since) || (!until.IsZero() && !e.RequestReceivedTimestamp.Before(until)) {
			continue
		}
		if e.Verb == "get" || e.Verb == "list" {
			w.Reads++
			continue
		}
		if !isWrite(e.Verb) {
			continue
		}
		w.Total++
		code := 0
		if e.ResponseStatus != nil {
			code = e.ResponseStatus.Code
		}
		switch {
		case code == 409:
			w.Conflicts++
		case code >= 400:
			w.Failed++
		}
		w.By[e.Verb+" "+resourceOf(e)]++
	}
	if err := sc.Err(); err != nil {
		return w, fmt.Errorf("audit log: %v", err)
	}
	return w, nil
}

func isWrite(verb string) bool {
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

func resourceOf(e auditEvent) string {
	if e.ObjectRef == nil {
		return "?"
	}
	if e.ObjectRef.Subresource != "" {
		return e.ObjectRef.Resource + "/" + e.ObjectRef.Subresource
	}
	return e.ObjectRef.Resource
}

// keys are the verb-and-resource keys of several counts, sorted.
func keys(ws []writes) []string {
	seen := map[string]bool{}
	for _, w := range ws {
		for k := range w.By {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
