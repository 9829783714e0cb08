package controller

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	core "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

func claim(name, class string) *core.PersistentVolumeClaim {
	return &core.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name)},
		Spec: core.PersistentVolumeClaimSpec{
			StorageClassName: &class,
			AccessModes:      []core.PersistentVolumeAccessMode{core.ReadWriteOnce},
			Resources:        core.VolumeResourceRequirements{Requests: core.ResourceList{core.ResourceStorage: resource.MustParse("1Gi")}},
		},
	}
}

// A claim of the served class gets a volume of its size and access modes,
// claimed by it; a claim of another class, or one bound already, gets
// none; a Released volume the provisioner made is deleted under Delete.
func TestProvisioner(t *testing.T) {
	ctx := context.Background()
	mine, other, bound := claim("data-web-0", "standard"), claim("data-db-0", "fast"), claim("data-web-1", "standard")
	bound.Spec.VolumeName = "pv-elsewhere"
	released := &core.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "pvc-old", UID: "pv-uid", Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": StandInProvisionerName}},
		Spec:       core.PersistentVolumeSpec{PersistentVolumeReclaimPolicy: core.PersistentVolumeReclaimDelete},
		Status:     core.PersistentVolumeStatus{Phase: core.VolumeReleased},
	}
	foreign := released.DeepCopy()
	foreign.Name, foreign.Annotations = "pv-foreign", nil
	client := fake.NewClientset(mine, other, bound, released, foreign)
	factory := informers.NewSharedInformerFactory(client, 0)
	p, err := NewProvisioner(client, factory, "standard")
	require.NoError(t, err)
	for _, c := range []*core.PersistentVolumeClaim{mine, other, bound} {
		require.NoError(t, factory.Core().V1().PersistentVolumeClaims().Informer().GetStore().Add(c))
	}
	for _, v := range []*core.PersistentVolume{released, foreign} {
		require.NoError(t, factory.Core().V1().PersistentVolumes().Informer().GetStore().Add(v))
	}
	for _, key := range []string{"claim/default/data-web-0", "claim/default/data-db-0", "claim/default/data-web-1", "volume/pvc-old", "volume/pv-foreign"} {
		require.NoError(t, p.sync(ctx, key), key)
	}
	pvs, err := client.CoreV1().PersistentVolumes().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var names []string
	for _, v := range pvs.Items {
		names = append(names, v.Name)
	}
	assert.ElementsMatch(t, []string{"pvc-" + string(mine.UID), "pv-foreign"}, names)
	pv, err := client.CoreV1().PersistentVolumes().Get(ctx, "pvc-"+string(mine.UID), metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1Gi", pv.Spec.Capacity.Storage().String())
	assert.Equal(t, mine.UID, pv.Spec.ClaimRef.UID)
	assert.Equal(t, "standard", pv.Spec.StorageClassName)
	assert.Equal(t, []core.PersistentVolumeAccessMode{core.ReadWriteOnce}, pv.Spec.AccessModes)

	sc := p.DefaultStorageClass()
	assert.Equal(t, "true", sc.Annotations["storageclass.kubernetes.io/is-default-class"])
	assert.Equal(t, StandInProvisionerName, sc.Provisioner)
}
