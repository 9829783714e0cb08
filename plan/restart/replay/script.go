// Package replay interprets a scripted sequence of informer events and
// restart-check ticks on a virtual clock, drives the restart planner
// (package plan/restart) through it and records a trace, in the script and
// trace formats of the recorded behaviour of the original
// kubernetes-deployment-restart-controller, so that the planner and the
// original can be compared step by step.
//
// To start: [ParseScript] reads a script and [Run] replays it into a [Trace].
//
// The interpreter keeps its own copy of the cluster: script updates and
// deletes change it, successful patches are applied to it as JSON merge
// patches and, when the script sets an echo delay, delivered back to the
// planner as updates. A controller instance can be stopped gracefully,
// killed and started again; a start re-lists the cluster in full-name order.
// Time "at": 0 is 2024-01-01T00:00:00Z (see [Epoch]).
package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// Epoch returns the virtual time of "at": 0, 2024-01-01T00:00:00Z; restart
// values in time.Stamp read "Jan  1 00:00:SS".
func Epoch() time.Time { return time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC) }

// Script is a scripted sequence of events.
type Script struct {
	Name               string   `json:"name,omitempty"`
	Comment            string   `json:"comment,omitempty"`
	GracePeriodSeconds *float64 `json:"gracePeriodSeconds,omitempty"`
	IgnoredErrors      []string `json:"ignoredErrors,omitempty"`
	EchoDelaySeconds   *float64 `json:"echoDelaySeconds,omitempty"`
	Events             []Event  `json:"events"`
}

// Event is one script event. Op is update, delete, tick, failPatches, stop,
// kill or start.
type Event struct {
	At        float64         `json:"at"`
	Op        string          `json:"op"`
	Object    json.RawMessage `json:"object,omitempty"`
	Tombstone bool            `json:"tombstone,omitempty"`
	Replace   bool            `json:"replace,omitempty"`
	Resource  string          `json:"resource,omitempty"`
	Error     *string         `json:"error,omitempty"`
}

// ErrBadScript is returned (wrapped) for a script that cannot be replayed.
var ErrBadScript = errors.New("bad restart script")

// ParseScript decodes a script, rejecting unknown fields, unknown ops,
// decreasing times and negative durations.
func ParseScript(b []byte) (Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("%w: %w", ErrBadScript, err)
	}
	if dec.More() {
		return Script{}, fmt.Errorf("%w: data after the script", ErrBadScript)
	}
	return s, s.validate()
}

// Validate checks what [ParseScript] checks once the script is decoded:
// known ops, non-decreasing times, non-negative durations, an object for
// each update and delete, a resource for each failPatches. A decoder of
// its own (a stricter one, say) calls it on the Script it built.
func (s Script) Validate() error { return s.validate() }

func (s Script) validate() error {
	if g := s.GracePeriodSeconds; g != nil && (*g < 0 || math.IsNaN(*g) || *g > 1e9) {
		return fmt.Errorf("%w: gracePeriodSeconds %v: want 0 to 1e9", ErrBadScript, *g)
	}
	if d := s.EchoDelaySeconds; d != nil && (*d < 0 || math.IsNaN(*d) || *d > 1e9) {
		return fmt.Errorf("%w: echoDelaySeconds %v: want 0 to 1e9", ErrBadScript, *d)
	}
	last := 0.0
	for i, e := range s.Events {
		if e.At < last || math.IsNaN(e.At) || e.At > 1e9 {
			return fmt.Errorf("%w: events[%d].at %v: want non-decreasing times from 0 to 1e9", ErrBadScript, i, e.At)
		}
		last = e.At
		switch e.Op {
		case "update", "delete":
			if len(e.Object) == 0 {
				return fmt.Errorf("%w: events[%d]: %s without object", ErrBadScript, i, e.Op)
			}
		case "failPatches":
			if e.Resource == "" {
				return fmt.Errorf("%w: events[%d]: failPatches without resource", ErrBadScript, i)
			}
		case "tick", "stop", "kill", "start":
		default:
			return fmt.Errorf("%w: events[%d].op %q: want update, delete, tick, failPatches, stop, kill or start", ErrBadScript, i, e.Op)
		}
	}
	return nil
}

// seconds converts script seconds to a duration, rounded to nanoseconds.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }
