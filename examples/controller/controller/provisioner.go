package controller

import (
	"context"
	"strings"

	core "k8s.io/api/core/v1"
	storage "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// StandInProvisionerName is the provisioner of the StorageClass the
// stand-in [Provisioner] serves.
const StandInProvisionerName = "rolloutplan.example/stand-in"

// Provisioner stands in for a cluster's dynamic volume provisioner, for
// tests and demonstrations only: for every claim of its StorageClass that
// is not bound it creates a PersistentVolume of the claim's size, access
// modes and volume mode, already claimed by it (kube-controller-manager's
// persistent volume controller then binds the two), and it deletes the
// volumes it made once they are Released under the Delete reclaim policy.
// The volumes are hostPath volumes nobody mounts: the stand-in kubelet runs
// no containers.
type Provisioner struct {
	client    kubernetes.Interface
	pvcLister corelisters.PersistentVolumeClaimLister
	pvLister  corelisters.PersistentVolumeLister
	w         *worker
	// StorageClass is the name of the class it serves.
	StorageClass string
}

// NewProvisioner registers the stand-in provisioner on the factory's
// claim and volume informers; it serves the StorageClass named class.
func NewProvisioner(client kubernetes.Interface, factory informers.SharedInformerFactory, class string) (*Provisioner, error) {
	ci := factory.Core().V1().PersistentVolumeClaims()
	vi := factory.Core().V1().PersistentVolumes()
	p := &Provisioner{client: client, pvcLister: ci.Lister(), pvLister: vi.Lister(), StorageClass: class}
	p.w = newWorker("provisioner", p.sync, []cache.InformerSynced{ci.Informer().HasSynced, vi.Informer().HasSynced}, 2, nil, nil)
	for _, in := range []struct {
		prefix   string
		informer cache.SharedIndexInformer
	}{{"claim/", ci.Informer()}, {"volume/", vi.Informer()}} {
		prefix, informer := in.prefix, in.informer
		add := func(obj any) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				p.w.add(prefix + key)
			}
		}
		if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    add,
			UpdateFunc: func(_, cur any) { add(cur) },
		}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// DefaultStorageClass is the StorageClass the provisioner serves, marked
// as the cluster's default (so that claims without a class get it, as the
// e2e suite's volumeClaimTemplates expect), binding at once, deleting
// released volumes.
func (p *Provisioner) DefaultStorageClass() *storage.StorageClass {
	return &storage.StorageClass{
		ObjectMeta: metav1.ObjectMeta{Name: p.StorageClass, Annotations: map[string]string{
			"storageclass.kubernetes.io/is-default-class": "true"}},
		Provisioner:       StandInProvisionerName,
		ReclaimPolicy:     new(core.PersistentVolumeReclaimDelete),
		VolumeBindingMode: new(storage.VolumeBindingImmediate),
	}
}

// Run waits for the caches and works until ctx ends.
func (p *Provisioner) Run(ctx context.Context) { p.w.run(ctx) }

func (p *Provisioner) sync(ctx context.Context, key string) error {
	if name, ok := strings.CutPrefix(key, "volume/"); ok {
		return p.reclaim(ctx, name)
	}
	ns, name, _ := cache.SplitMetaNamespaceKey(strings.TrimPrefix(key, "claim/"))
	claim, err := p.pvcLister.PersistentVolumeClaims(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if claim.DeletionTimestamp != nil || claim.Spec.VolumeName != "" || claim.Spec.StorageClassName == nil || *claim.Spec.StorageClassName != p.StorageClass {
		return nil
	}
	pv := &core.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "pvc-" + string(claim.UID), Annotations: map[string]string{
			"pv.kubernetes.io/provisioned-by": StandInProvisionerName}},
		Spec: core.PersistentVolumeSpec{
			Capacity:                      core.ResourceList{core.ResourceStorage: claim.Spec.Resources.Requests[core.ResourceStorage]},
			AccessModes:                   claim.Spec.AccessModes,
			VolumeMode:                    claim.Spec.VolumeMode,
			StorageClassName:              p.StorageClass,
			PersistentVolumeReclaimPolicy: core.PersistentVolumeReclaimDelete,
			ClaimRef: &core.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1",
				Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID},
			PersistentVolumeSource: core.PersistentVolumeSource{HostPath: &core.HostPathVolumeSource{
				Path: "/var/lib/rolloutplan-stand-in/" + string(claim.UID)}},
		},
	}
	if _, err := p.client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// reclaim deletes a volume it made once its claim is gone (Released) and
// its policy says Delete.
func (p *Provisioner) reclaim(ctx context.Context, name string) error {
	pv, err := p.pvLister.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if pv.Annotations["pv.kubernetes.io/provisioned-by"] != StandInProvisionerName || pv.DeletionTimestamp != nil ||
		pv.Status.Phase != core.VolumeReleased || pv.Spec.PersistentVolumeReclaimPolicy != core.PersistentVolumeReclaimDelete {
		return nil
	}
	err = p.client.CoreV1().PersistentVolumes().Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &pv.UID}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}
