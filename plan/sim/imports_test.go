package sim

import (
	"os/exec"
	"strings"
	"testing"
)

// Importing plan/sim must not change the importer's command line: neither
// it nor plantest may depend on rapid (which registers -rapid.* flags on
// the default flag set), and a program importing it has no flags at all.
// Before, sim imported plantest, which imported rapid: ten -rapid.* flags.
func TestImportingSimRegistersNoFlags(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/rolloutplan/rolloutplan/plan/sim", "github.com/rolloutplan/rolloutplan/plan/plantest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "pgregory.net/rapid") || strings.HasSuffix(dep, "/plantest/gen") {
			t.Errorf("plan/sim or plan/plantest depends on %s", dep)
		}
	}
	out, err = exec.Command("go", "run", "./testdata/noflags").CombinedOutput()
	if err != nil {
		t.Fatalf("go run ./testdata/noflags: %v\n%s", err, out)
	}
	if flags := strings.TrimSpace(string(out)); flags != "" {
		t.Errorf("importing plan/sim registers flags:\n%s", flags)
	}
}
