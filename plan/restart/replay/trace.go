package replay

import "encoding/json"

// Trace is the record of a replay.
type Trace struct {
	Steps []Step `json:"steps"`
	Final *Final `json:"final,omitempty"`
}

// Step is one step of a trace: a script event (I is its index) or an echo
// or re-list update (I is -1).
type Step struct {
	I                 int                `json:"i"`
	At                float64            `json:"at"`
	Op                string             `json:"op"`
	Source            string             `json:"source,omitempty"`
	Down              bool               `json:"down,omitempty"`
	Noop              bool               `json:"noop,omitempty"`
	Resource          string             `json:"resource,omitempty"`
	Version           *string            `json:"version,omitempty"`
	KnownVersion      bool               `json:"knownVersion,omitempty"`
	Checksum          string             `json:"checksum,omitempty"`
	Enabled           *bool              `json:"enabled,omitempty"`
	ReferencedConfigs []string           `json:"referencedConfigs,omitempty"`
	AppliedChecksums  *map[string]string `json:"appliedChecksums,omitempty"`
	Object            json.RawMessage    `json:"object,omitempty"`
	Processed         []string           `json:"processed,omitempty"`
	Patches           []Patch            `json:"patches,omitempty"`
	Restarts          int                `json:"restarts,omitempty"`
	Fatal             string             `json:"fatal,omitempty"`
	Warnings          []string           `json:"warnings,omitempty"`
	Changes           *[]Change          `json:"changes,omitempty"`
	Metrics           *Metrics           `json:"metrics,omitempty"`
}

// Patch is a patch sent in a step.
type Patch struct {
	Kind      string          `json:"kind"`
	Namespace string          `json:"namespace"`
	Name      string          `json:"name"`
	PatchType string          `json:"patchType"`
	Body      json.RawMessage `json:"body"`
	Restart   bool            `json:"restart"`
	Error     string          `json:"error,omitempty"`
}

// Change is a queued change after a step.
type Change struct {
	Resource     string  `json:"resource"`
	Observations int     `json:"observations"`
	Since        float64 `json:"since"`
}

// Metrics are the original's seven metrics after a step.
type Metrics struct {
	ResourceVersionsTotal            int `json:"resource_versions_total"`
	ConfigsTotal                     int `json:"configs_total"`
	DeploymentsTotal                 int `json:"deployments_total"`
	DeploymentAnnotationUpdatesTotal int `json:"deployment_annotation_updates_total"`
	DeploymentRestartsTotal          int `json:"deployment_restarts_total"`
	ChangesProcessedTotal            int `json:"changes_processed_total"`
	ChangesWaitingTotal              int `json:"changes_waiting_total"`
}

// Final is the catalog of the running instance at the end.
type Final struct {
	Configs     map[string]FinalConfig   `json:"configs"`
	Deployments map[string]FinalWorkload `json:"deployments"`
}

// FinalConfig is a config of the final catalog.
type FinalConfig struct {
	Checksum    string   `json:"checksum"`
	Deployments []string `json:"deployments"`
}

// FinalWorkload is a workload of the final catalog.
type FinalWorkload struct {
	Configs          []string          `json:"configs"`
	AppliedChecksums map[string]string `json:"appliedChecksums"`
}
