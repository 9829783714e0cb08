package proportion_test

import (
	"fmt"
	"time"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/proportion"
)

func ExampleResolveFenceposts() {
	pct := model.FromString("25%")
	for _, desired := range []int32{10, 1, 0} {
		surge, unavailable, err := proportion.ResolveFenceposts(&pct, &pct, desired)
		fmt.Println(desired, surge, unavailable, err)
	}
	bad := model.FromString("12x%")
	_, _, err := proportion.ResolveFenceposts(&bad, &pct, 10)
	fmt.Println(err)
	// Output:
	// 10 3 2 <nil>
	// 1 1 0 <nil>
	// 0 0 1 <nil>
	// spec.strategy.rollingUpdate.maxSurge: invalid value "12x%": percentage is not an integer
}

// A Deployment of 10 replicas (maxSurge 3) is stuck mid-rollout with 8 old
// and 5 new pods when it is scaled to 15: the 5 extra replicas (18 allowed,
// 13 present) are shared in proportion.
func ExampleDistribute() {
	surge, unavailable := model.FromInt(3), model.FromInt(2)
	d := &model.Deployment{Spec: model.DeploymentSpec{
		Replicas: model.Int32Ptr(15),
		Strategy: model.Strategy{
			Type:          model.RollingUpdateStrategy,
			RollingUpdate: &model.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable},
		},
	}}
	rs := func(name string, replicas int32, created time.Time) *model.ReplicaSet {
		return &model.ReplicaSet{
			ObjectMeta: model.ObjectMeta{Name: name, CreationTimestamp: created, Annotations: map[string]string{
				model.DesiredReplicasAnnotation: "10",
				model.MaxReplicasAnnotation:     "13",
			}},
			Spec: model.ReplicaSetSpec{Replicas: model.Int32Ptr(replicas)},
		}
	}
	t := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	newRS, oldRS := rs("web-new", 5, t.Add(time.Hour)), rs("web-old", 8, t)

	if proportion.FindActiveOrLatest(newRS, []*model.ReplicaSet{oldRS}) == nil {
		dist := proportion.Distribute(d, proportion.ScaleCandidates(newRS, []*model.ReplicaSet{oldRS}), proportion.Options{})
		fmt.Printf("allowed %d, current %d, scale %s by %d\n", dist.Allowed, dist.Current, dist.Direction, dist.ToAdd)
		for _, s := range dist.Shares {
			fmt.Printf("%s: %d → %d (proportion %+d, leftover %+d)\n", s.ReplicaSet.Name, s.From, s.To, s.Proportion, s.Leftover)
		}
	}
	// Output:
	// allowed 18, current 13, scale up by 5
	// web-old: 8 → 11 (proportion +3, leftover +0)
	// web-new: 5 → 7 (proportion +2, leftover +0)
}

func ExampleNonNegativeInt32Annotation() {
	ann := map[string]string{model.MaxReplicasAnnotation: "13", model.DesiredReplicasAnnotation: "+10"}
	fmt.Println(proportion.NonNegativeInt32Annotation(ann, model.MaxReplicasAnnotation))
	fmt.Println(proportion.NonNegativeInt32Annotation(ann, model.DesiredReplicasAnnotation))
	// Output:
	// 13 true
	// 0 false
}
