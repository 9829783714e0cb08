package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"
)

// observer follows the Deployments and ReplicaSets of one namespace: it
// records, per Deployment, the sequence of its ReplicaSets' sizes (the new
// one's spec.replicas and the old ones' sum) in the order the watch
// delivers them, and says when every Deployment has completed its
// rollout to an image.
type observer struct {
	deployments appslisters.DeploymentLister
	replicaSets appslisters.ReplicaSetLister
	synced      []cache.InformerSynced
	ns          string
	changed     chan struct{}

	mu        sync.Mutex
	image     string            // the image Deployments roll out to
	recording bool              // whether sizes are recorded
	sets      map[string]rsSize // ReplicaSet name -> its owner and size, as last delivered
	last      map[string]size   // Deployment name -> its last recorded sizes
	seqs      map[string][]size // Deployment name -> recorded sizes
}

type rsSize struct {
	owner    string
	image    string
	replicas int32
}

// size is a Deployment's ReplicaSets' spec.replicas: the new one's (0
// while there is none) and the old ones' sum.
type size struct{ New, Old int32 }

func (s size) String() string { return strconv.Itoa(int(s.New)) + "/" + strconv.Itoa(int(s.Old)) }

// sequence formats recorded sizes as "new/old new/old ...".
func sequence(s []size) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.String()
	}
	return strings.Join(parts, " ")
}

func newObserver(factory informers.SharedInformerFactory, ns string) (*observer, error) {
	o := &observer{ns: ns, changed: make(chan struct{}, 1), sets: map[string]rsSize{}, last: map[string]size{}, seqs: map[string][]size{}}
	di := factory.Apps().V1().Deployments()
	ri := factory.Apps().V1().ReplicaSets()
	o.deployments, o.replicaSets = di.Lister(), ri.Lister()
	o.synced = []cache.InformerSynced{di.Informer().HasSynced, ri.Informer().HasSynced}
	if _, err := di.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { o.signal() },
		UpdateFunc: func(any, any) { o.signal() },
		DeleteFunc: func(any) { o.signal() },
	}); err != nil {
		return nil, err
	}
	// The handlers of one informer run one at a time, in the order of the
	// watch: the sizes are recorded from the delivered objects themselves,
	// not from the cache (which may already hold a later state).
	if _, err := ri.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { o.replicaSet(obj, false) },
		UpdateFunc: func(_, obj any) { o.replicaSet(obj, false) },
		DeleteFunc: func(obj any) { o.replicaSet(obj, true) },
	}); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *observer) signal() {
	select {
	case o.changed <- struct{}{}:
	default:
	}
}

func (o *observer) replicaSet(obj any, deleted bool) {
	defer o.signal()
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	rs, ok := obj.(*apps.ReplicaSet)
	if !ok {
		return
	}
	ref := metav1.GetControllerOf(rs)
	if ref == nil || ref.Kind != "Deployment" {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if deleted {
		delete(o.sets, rs.Name)
	} else {
		o.sets[rs.Name] = rsSize{owner: ref.Name, image: imageOf(&rs.Spec.Template.Spec), replicas: replicasOf(rs.Spec.Replicas)}
	}
	if o.recording {
		o.record(ref.Name)
	}
}

// record appends the Deployment's current sizes to its sequence when they
// changed. o.mu is held.
func (o *observer) record(deployment string) {
	var s size
	for _, rs := range o.sets {
		if rs.owner != deployment {
			continue
		}
		if rs.image == o.image {
			s.New += rs.replicas
		} else {
			s.Old += rs.replicas
		}
	}
	if prev, ok := o.last[deployment]; ok && prev == s {
		return
	}
	o.last[deployment] = s
	o.seqs[deployment] = append(o.seqs[deployment], s)
}

// begin starts recording the sizes of the Deployments named, towards
// image: each sequence starts with the sizes before the update.
func (o *observer) begin(image string, deployments []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.image, o.recording = image, true
	for _, d := range deployments {
		o.record(d)
	}
}

// sequences returns the recorded sequences by Deployment name.
func (o *observer) sequences() map[string]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make(map[string]string, len(o.seqs))
	for d, s := range o.seqs {
		out[d] = sequence(s)
	}
	return out
}

// waitComplete waits until the n Deployments of the namespace have
// completed their rollout to image: observedGeneration current,
// updatedReplicas = availableReplicas = replicas = spec.replicas, and
// every other ReplicaSet they own at spec.replicas 0. It returns when it
// saw that.
func (o *observer) waitComplete(ctx context.Context, image string, n int, timeout time.Duration) (time.Time, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		done, why, err := o.complete(image, n)
		if err != nil {
			return time.Time{}, err
		}
		if done {
			return time.Now(), nil
		}
		select {
		case <-ctx.Done():
			return time.Time{}, fmt.Errorf("rollout to %s not complete after %s: %s", image, timeout, why)
		case <-o.changed:
		case <-tick.C:
		}
	}
}

func (o *observer) complete(image string, n int) (bool, string, error) {
	ds, err := o.deployments.Deployments(o.ns).List(labels.Everything())
	if err != nil {
		return false, "", err
	}
	if len(ds) != n {
		return false, fmt.Sprintf("%d of %d Deployments seen", len(ds), n), nil
	}
	sets, err := o.replicaSets.ReplicaSets(o.ns).List(labels.Everything())
	if err != nil {
		return false, "", err
	}
	old := map[string]int32{} // Deployment name -> its other ReplicaSets' spec.replicas
	for _, rs := range sets {
		if ref := metav1.GetControllerOf(rs); ref != nil && ref.Kind == "Deployment" && imageOf(&rs.Spec.Template.Spec) != image {
			old[ref.Name] += replicasOf(rs.Spec.Replicas)
		}
	}
	pending := 0
	var example string
	for _, d := range ds {
		st, want := d.Status, replicasOf(d.Spec.Replicas)
		if imageOf(&d.Spec.Template.Spec) == image && st.ObservedGeneration >= d.Generation &&
			st.Replicas == want && st.UpdatedReplicas == want && st.AvailableReplicas == want && old[d.Name] == 0 {
			continue
		}
		pending++
		if example == "" {
			example = fmt.Sprintf("%s: generation %d observed %d, replicas %d updated %d available %d of %d, old ReplicaSets %d",
				d.Name, d.Generation, st.ObservedGeneration, st.Replicas, st.UpdatedReplicas, st.AvailableReplicas, want, old[d.Name])
		}
	}
	if pending > 0 {
		return false, fmt.Sprintf("%d Deployments pending, e.g. %s", pending, example), nil
	}
	return true, "", nil
}

// imageOf is the image of a pod template's first container: the
// scenarios' templates differ only in it.
func imageOf(spec *core.PodSpec) string {
	if len(spec.Containers) == 0 {
		return ""
	}
	return spec.Containers[0].Image
}

func replicasOf(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// processCPU is the user and system CPU time a running process has used
// so far, from /proc/<pid>/stat (utime and stime, in the clock ticks of
// USER_HZ, 100 per second on Linux).
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStatCPU(string(b))
}

// parseStatCPU reads utime and stime (fields 14 and 15) from the text of
// /proc/<pid>/stat; the command name (field 2) is in parentheses and may
// hold spaces, so fields are counted after its closing one.
func parseStatCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat %q: no command name", stat)
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat: %d fields after the command name, want at least 13", len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("/proc stat: utime or stime %q", s)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100), nil
}
