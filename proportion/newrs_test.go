package proportion

import (
	"errors"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
)

func TestNewRSNewReplicas(t *testing.T) {
	type tc struct {
		why
		d     *model.Deployment
		all   []*model.ReplicaSet
		newRS *model.ReplicaSet
		want  int32
		err   error
	}
	five := replicaSet("other", 5, minute(0))
	withType := func(d *model.Deployment, typ model.StrategyType) *model.Deployment {
		d.Spec.Strategy.Type = typ
		return d
	}
	cases := []tc{
		{why: why{"cannot scale up", "upstream TestNewRSNewReplicas: current 5 ≥ max 1+1 ⇒ unchanged 5"},
			d: rolling(1, intv(1), intv(1)), all: []*model.ReplicaSet{five}, newRS: replicaSet("new", 5, minute(1)), want: 5},
		{why: why{"scale up capped by D", "upstream TestNewRSNewReplicas: max 16, current 5 ⇒ min(11, 6−2) = 4 ⇒ 6"},
			d: rolling(6, intv(10), intv(1)), all: []*model.ReplicaSet{five}, newRS: replicaSet("new", 2, minute(1)), want: 6},
		{why: why{"recreate", "upstream TestNewRSNewReplicas: Recreate returns D"},
			d: withType(rolling(3, intv(1), intv(1)), model.RecreateStrategy), all: []*model.ReplicaSet{five}, newRS: replicaSet("new", 1, minute(1)), want: 3},
		{why: why{"first rollout", "upstream NewRSNewReplicas: new RS at 0 in allRSs alone ⇒ min(D + surge, D) = D"},
			d: rolling(10, strv("25%"), strv("25%")), all: []*model.ReplicaSet{replicaSet("new", 0, minute(1))}, newRS: replicaSet("new", 0, minute(1)), want: 10},
		{why: why{"surge limits", "upstream NewRSNewReplicas: D 10, surge 3, old 10 + new 0 ⇒ up min(3, 10) = 3"},
			d: rolling(10, strv("25%"), strv("25%")), all: []*model.ReplicaSet{replicaSet("old", 10, minute(0)), nil, replicaSet("new", 0, minute(1))}, newRS: replicaSet("new", 0, minute(1)), want: 3},
		{why: why{"maxSurge error", "upstream ResolveFenceposts: unlike MaxSurge, NewRSNewReplicas fails on \"5\""},
			d: rolling(10, strv("5"), intv(1)), all: []*model.ReplicaSet{five}, newRS: replicaSet("new", 1, minute(1)), err: ErrNotPercentage},
		{why: why{"nil maxSurge", "upstream NewRSNewReplicas: maxSurge is read directly, nil is an error"},
			d: rolling(10, nil, intv(1)), all: []*model.ReplicaSet{five}, newRS: replicaSet("new", 1, minute(1)), err: ErrNil},
		{why: why{"unsupported strategy", "upstream NewRSNewReplicas: other types are not supported"},
			d: withType(rolling(3, intv(1), intv(1)), "BlueGreen"), newRS: replicaSet("new", 1, minute(1)), err: ErrUnsupportedStrategy},
		{why: why{"nil new RS", "never panic: RollingUpdate needs newRS"},
			d: rolling(3, intv(1), intv(1)), err: ErrNil},
		{why: why{"nil deployment", "never panic"}, err: ErrNil},
		{why: why{"surge wraps to int32", "upstream NewRSNewReplicas int32(maxSurge): (2^53+1)% of 100 is 2^53 in float64, wraps to 0 ⇒ max 100 = current ⇒ unchanged 0"},
			d: rolling(100, strv("9007199254740993%"), intv(1)), all: []*model.ReplicaSet{replicaSet("old", 100, minute(0))}, newRS: replicaSet("new", 0, minute(1)), want: 0},
		{why: why{"surge beyond int64", "upstream NewRSNewReplicas on amd64: ceil gives 2^63, int() makes MinInt64, int32 0 ⇒ max 100 > 99 ⇒ +1"},
			d: rolling(100, strv("9223372036854775807%"), intv(1)), all: []*model.ReplicaSet{replicaSet("old", 99, minute(0))}, newRS: replicaSet("new", 0, minute(1)), want: 1},
	}
	runCases(t, cases, func(t *testing.T, c tc) {
		got, err := NewRSNewReplicas(c.d, c.all, c.newRS)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Fatalf("NewRSNewReplicas = (%d, %v), want error %v", got, err, c.err)
			}
			return
		}
		if err != nil || got != c.want {
			t.Fatalf("NewRSNewReplicas = (%d, %v), want %d", got, err, c.want)
		}
	})
}
