package clitest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// DaemonSetPool writes a List of a DaemonSet not yet rolled out over n
// nodes to a file in t's temporary directory and returns its path: the
// worst input of a DaemonSet's simulation or prediction (the memory tests
// of simulate and status), as every sync models every node and the pods
// created so far.
func DaemonSetPool(t testing.TB, n int) string {
	t.Helper()
	items := []string{`{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"default",` +
		`"uid":"0b7d6a3e-0000-4000-8000-000000000003","generation":1,"creationTimestamp":"2025-03-01T10:00:00Z"},` +
		`"spec":{"selector":{"matchLabels":{"app":"agent"}},"template":{"metadata":{"labels":{"app":"agent"}},` +
		`"spec":{"containers":[{"name":"agent","image":"agent:1"}]}}}}`}
	// Nodes as a cluster records them, in part (labels, a Ready
	// condition, addresses, capacity, the node's system): the reader
	// refuses thousands of objects with nothing in them (an 80-byte Node
	// decodes to some 800 bytes, past its bound of 4 times the input).
	for i := range n {
		items = append(items, fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n-%05d","uid":"node-%d",`+
			`"labels":{"kubernetes.io/hostname":"n-%05d","kubernetes.io/os":"linux","kubernetes.io/arch":"amd64"}},`+
			`"status":{"conditions":[{"type":"Ready","status":"True","reason":"KubeletReady","message":"kubelet is posting ready status"}],`+
			`"addresses":[{"type":"InternalIP","address":"10.0.%d.%d"},{"type":"Hostname","address":"n-%05d"}],`+
			`"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},`+
			`"nodeInfo":{"machineID":"%032x","systemUUID":"%032x","bootID":"%032x","kernelVersion":"6.1.0-18-cloud-amd64","osImage":"Debian GNU/Linux 12 (bookworm)",`+
			`"containerRuntimeVersion":"containerd://1.7.13","kubeletVersion":"v1.36.3","kubeProxyVersion":"","operatingSystem":"linux","architecture":"amd64"}}}`,
			i, i, i, i/256, i%256, i, i, i, i))
	}
	file := filepath.Join(t.TempDir(), "pool.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"apiVersion":"v1","kind":"List","items":[`+strings.Join(items, ",")+`]}`), 0o600))
	return file
}
