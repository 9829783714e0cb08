package statefulset

import (
	"hash/fnv"
	"strconv"

	"github.com/rolloutplan/rolloutplan/hash"
)

// maxRevisionPrefix is how much of a set's name a revision name keeps
// (upstream ControllerRevisionName).
const maxRevisionPrefix = 223

// HashRevision returns the hash upstream's history gives revision data
// (HashControllerRevision): FNV-1 (32 bit) over data, then over the decimal
// collision count when it is not nil, its decimal value encoded with
// hash.SafeEncodeString. For example the data
// {"spec":{"template":{"$patch":"replace",...}}} of a template and the
// collision count 0 give a name suffix such as "7c5b9978bd".
func HashRevision(data string, collisionCount *int32) string {
	h := fnv.New32()
	h.Write([]byte(data))
	if collisionCount != nil {
		h.Write(strconv.AppendInt(nil, int64(*collisionCount), 10))
	}
	return hash.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// RevisionName returns the name of a set's revision with the given hash:
// "<set name>-<hash>", the set's name cut to 223 bytes.
func RevisionName(setName, hash string) string {
	if len(setName) > maxRevisionPrefix {
		setName = setName[:maxRevisionPrefix]
	}
	return setName + "-" + hash
}
