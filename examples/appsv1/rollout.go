package appsv1

import (
	"encoding/json"

	"github.com/rolloutplan/rolloutplan/model"
)

// TemplateJSON encodes a model pod template as kubectl encodes a
// v1.PodTemplateSpec in the patch of rollout undo: [TemplateFromModel], then
// encoding/json on the Go struct, so the bytes follow the struct's field
// order. It is the encoder to give rollout.Undo for kubectl's exact bytes.
func TemplateJSON(t model.PodTemplate) ([]byte, error) {
	tmpl, err := TemplateFromModel(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(&tmpl)
}
