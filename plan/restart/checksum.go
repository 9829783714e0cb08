package restart

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// NullChecksum is the checksum of a config without data: the checksum of the
// JSON literal null.
const NullChecksum = "74234e98afe7498f"

// ConfigMapChecksum returns the original controller's checksum of a
// ConfigMap: the first 8 bytes of the SHA-256 of encoding/json's encoding of
// data (keys sorted, '<', '>', '&', U+2028 and U+2029 escaped), as 16
// lower-case hex digits. Empty data hashes as null, as a nil map does (the API
// server never returns an empty map).
//
// The original ignores binaryData. With includeBinary set and binaryData not
// empty, the checksum covers {"binaryData":…,"data":…} instead (the bytes as
// base64); without binaryData the checksum is the original's either way, so
// switching the option on restarts nothing that has no binary data.
func ConfigMapChecksum(data map[string]string, binaryData map[string][]byte, includeBinary bool) string {
	if includeBinary && len(binaryData) > 0 {
		return sum(struct {
			BinaryData map[string][]byte `json:"binaryData"`
			Data       map[string]string `json:"data"`
		}{binaryData, emptyAsNil(data)})
	}
	return sum(emptyAsNil(data))
}

// SecretChecksum returns the original controller's checksum of a Secret:
// as [ConfigMapChecksum], over the data map whose values encoding/json writes
// as standard base64.
func SecretChecksum(data map[string][]byte) string {
	if len(data) == 0 {
		return sum(nil)
	}
	return sum(data)
}

func emptyAsNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// sum hashes the JSON encoding of v. Maps of strings and byte slices always
// encode, so the error is impossible.
func sum(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}
