package e2e_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The sequence of Kubernetes' e2e spec "StatefulSet Non-retain
// StatefulSetPersistentVolumeClaimPolicy should not delete PVCs when there
// is another controller": a claim whose reference to the set lost its
// controller flag gets it back once the set is synced under a Delete
// policy (upstream's isClaimOwnerUpToDate: hasNonControllerOwner, then
// updateClaimOwnerRefForSetAndPod). The plan always asked for it; the
// adapter rendered the claim with the old reference kept, flag and all,
// until that spec failed against this controller.
func TestStatefulSetClaimControllerFlagRestored(t *testing.T) {
	ctx, ns := setup(t)
	syncs := startStatefulSets(t, ns)
	s := statefulSet(ns, "ss", 3, "web:1")
	set := createStatefulSet(ctx, t, s)
	waitStatefulSet(ctx, t, ns, "ss", "the first rollout", rolledOut)
	updateStatefulSet(ctx, t, ns, "ss", func(s *apps.StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: apps.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.RetainPersistentVolumeClaimRetentionPolicyType}
	})
	setRef := []string{fmt.Sprintf("StatefulSet/ss(%s) controller", set.UID)}
	waitFor(ctx, t, "the set's references on the claims", 20*time.Second, func() (bool, error) {
		for _, c := range claims(ctx, t, ns) {
			if !slices.Equal(ownerRefs(c), setRef) {
				return false, nil
			}
		}
		return true, nil
	})
	c0 := claims(ctx, t, ns)["data-ss-0"]
	c0.OwnerReferences[0].Controller = new(false)
	if _, err := client.CoreV1().PersistentVolumeClaims(ns).Update(ctx, &c0, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	updateStatefulSet(ctx, t, ns, "ss", func(s *apps.StatefulSet) {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: apps.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: apps.DeletePersistentVolumeClaimRetentionPolicyType}
	})
	waitFor(ctx, t, "claim 0's controller flag restored", 20*time.Second, func() (bool, error) {
		return slices.Equal(ownerRefs(claims(ctx, t, ns)["data-ss-0"]), setRef), nil
	})
	syncs.verify(t)
}
