package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"time"
)

// EtcdURL is the client URL of etcd (http, loopback), for tests that
// inject faults under the API server.
func (e *Env) EtcdURL() string { return e.etcdURL }

// etcdPost sends a request to etcd's JSON gateway of its v3 API and
// decodes the answer into out.
func (e *Env) etcdPost(ctx context.Context, path string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.etcdURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("etcd %s: %d %s", path, resp.StatusCode, b)
	}
	return json.Unmarshal(b, out)
}

// EtcdRevision returns etcd's current revision (the resourceVersion of
// the last write the API server made).
func (e *Env) EtcdRevision(ctx context.Context) (int64, error) {
	var out struct {
		Header struct {
			Revision string `json:"revision"`
		} `json:"header"`
	}
	// A range over one key that need not exist: only the header matters.
	if err := e.etcdPost(ctx, "/v3/kv/range", map[string]any{"key": "Lw=="}, &out); err != nil {
		return 0, err
	}
	return strconv.ParseInt(out.Header.Revision, 10, 64)
}

// CompactEtcd compacts etcd's history up to its current revision, which it
// returns: a watch or a list from an older resourceVersion that reaches
// etcd is then answered 410 Gone.
func (e *Env) CompactEtcd(ctx context.Context) (int64, error) {
	rev, err := e.EtcdRevision(ctx)
	if err != nil {
		return 0, err
	}
	var out map[string]any
	if err := e.etcdPost(ctx, "/v3/kv/compaction", map[string]any{"revision": strconv.FormatInt(rev, 10), "physical": true}, &out); err != nil {
		return 0, err
	}
	return rev, nil
}

// RestartEtcd kills etcd, waits down, then starts it again with the same
// flags and data, and waits until it answers, at most timeout. The API
// server keeps running and reconnects by itself.
func (e *Env) RestartEtcd(down, timeout time.Duration) error {
	if e.etcd == nil {
		return errors.New("etcd is not running")
	}
	args := e.etcd.cmd.Args[1:]
	e.etcd.kill()
	time.Sleep(down)
	p, err := start(filepath.Join(e.dir, "etcd.log"), e.etcdBin, args...)
	if err != nil {
		return err
	}
	e.etcd = p
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		rctx, rcancel := context.WithTimeout(ctx, time.Second)
		_, err := e.EtcdRevision(rctx)
		rcancel()
		if err == nil {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("etcd exited after its restart: %s", e.tail("etcd.log"))
		case <-ctx.Done():
			return fmt.Errorf("etcd not answering %s after its restart: %v", timeout, err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
