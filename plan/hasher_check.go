package plan

import (
	"fmt"

	"github.com/rolloutplan/rolloutplan/model"
)

// maxHashLength is the longest pod-template hash accepted from a hasher: the
// hash is a label value (at most 63 characters) and the suffix of a
// ReplicaSet name.
const maxHashLength = 63

// checkHash returns an error naming plan.WithHasher when the hasher's output
// cannot be a pod-template-hash label and a ReplicaSet name suffix: it must
// be 1 to 63 lower-case letters, digits or '-', starting and ending with a
// letter or digit (upstream's hashes are 1 to 10 characters of
// "bcdfghjklmnpqrstvwxz2456789").
func checkHash(h string) error {
	detail := ""
	switch {
	case h == "":
		detail = "must not be empty"
	case len(h) > maxHashLength:
		detail = fmt.Sprintf("must be no more than %d characters (it labels pods and ends the ReplicaSet name)", maxHashLength)
	case !isHashEnd(h[0]) || !isHashEnd(h[len(h)-1]):
		detail = "must start and end with a lower-case letter or digit"
	default:
		for i := 0; i < len(h); i++ {
			if c := h[i]; !isHashEnd(c) && c != '-' {
				detail = "must consist of lower-case letters, digits or '-' (it labels pods and ends the ReplicaSet name)"
				break
			}
		}
	}
	if detail == "" {
		return nil
	}
	return &model.FieldError{Field: "plan.WithHasher", Value: h, Detail: "the hasher returned an unusable pod-template hash: " + detail}
}

func isHashEnd(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
