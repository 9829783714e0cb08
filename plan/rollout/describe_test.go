package rollout

import (
	"strings"
	"testing"

	"github.com/rolloutplan/rolloutplan/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantityScaled checks parseQuantity and scaled against the values
// k8s.io/apimachinery v0.36.3's resource.MustParse(q).Value() and
// MilliValue() return (recorded with that package), overflow and its
// rounding of negative decimals included.
func TestQuantityScaled(t *testing.T) {
	for _, tc := range []struct {
		q            string
		value, milli int64
	}{
		{"1500m", 2, 1500},
		{"100m", 1, 100},
		{"1n", 1, 1},
		{"-1n", -1, -1},
		{"-0.1Ki", -101, -102400},
		{"0.1Ki", 103, 102400},
		{"9E", 9000000000000000000, 0},
		{"1e30", 0, 0},
		{"9Ei", 9223372036854775807, -1000},
		{"-1e30", 0, 0},
		{"1e-10", 1, 1},
		{"12345678u", 13, 12346},
	} {
		q, err := parseQuantity(tc.q)
		require.NoError(t, err, tc.q)
		assert.Equal(t, tc.value, q.scaled(0), "Value of %s", tc.q)
		assert.Equal(t, tc.milli, q.scaled(-3), "MilliValue of %s", tc.q)
	}
	for _, bad := range []string{"1x", "1.2.3", "1e", "1K", "1e3000"} {
		_, err := parseQuantity(bad)
		assert.Error(t, err, bad)
	}
}

// TestFormatLabelSelector checks formatLabelSelector against
// metav1.FormatLabelSelector v0.36.3 (recorded with that package).
func TestFormatLabelSelector(t *testing.T) {
	for _, tc := range []struct {
		sel  *model.LabelSelector
		want string
	}{
		{&model.LabelSelector{}, "<none>"},
		{&model.LabelSelector{
			MatchLabels: map[string]string{"b": "1", "a": "2"},
			MatchExpressions: []model.LabelSelectorRequirement{
				{Key: "a", Operator: model.SelectorOpExists},
				{Key: "c", Operator: model.SelectorOpIn, Values: []string{"z", "y"}},
				{Key: "b", Operator: model.SelectorOpNotIn, Values: []string{"x"}},
				{Key: "a", Operator: model.SelectorOpDoesNotExist},
			}}, "a=2,a,!a,b=1,b notin (x),c in (y,z)"},
		{&model.LabelSelector{MatchExpressions: []model.LabelSelectorRequirement{{Key: "a", Operator: model.SelectorOpIn}}}, "<error>"},
		{&model.LabelSelector{MatchLabels: map[string]string{"a b": "c"}}, "<error>"},
	} {
		assert.Equal(t, tc.want, formatLabelSelector(tc.sel))
	}
}

// TestDescribeTemplateNested checks the parts laid out on kubectl's nested
// writer (an ephemeral volume's claim template), CSI attributes, volume
// devices, an unknown volume, topology spread constraints and the
// scheduling group, against the text kubectl v0.36.3's DescribePodTemplate
// printed for the same template (recorded).
func TestDescribeTemplateNested(t *testing.T) {
	spec := `{"spec":{"volumes":[{"name":"scratch","ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"a":"1","b":"2"},` +
		`"annotations":{"volume.beta.kubernetes.io/storage-class":"beta","note":"x"}},"spec":{"storageClassName":"fast","volumeName":"pv-1",` +
		`"volumeMode":"Block","dataSource":{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"snap"}}}}},` +
		`{"name":"csi","csi":{"driver":"d","volumeAttributes":{"a":"1","b":"2"}}},{"name":"none"}],` +
		`"containers":[{"name":"c","volumeDevices":[{"name":"b","devicePath":"/dev/b"},{"name":"a","devicePath":"/dev/a"}]}],` +
		`"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},` +
		`{"maxSkew":2,"topologyKey":"host","whenUnsatisfiable":"ScheduleAnyway","labelSelector":{}}],"schedulingGroup":{"podGroupName":"g"}}}`
	want := strings.Join([]string{
		"Pod Template:",
		"  Labels:\t<none>",
		"  Containers:",
		"   c:",
		"    Image:\t",
		"    Port:\t<none>",
		"    Host Port:\t<none>",
		"    Environment:\t<none>",
		"    Mounts:\t<none>",
		"    Devices:\t<none>",
		"      /dev/a from a",
		"      /dev/b from b",
		"  Volumes:",
		"   scratch:",
		"    Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)",
		"    StorageClass:\tbeta",
		"    Volume:\tpv-1",
		"    Labels:\t    a=1",
		"        \t    b=2",
		"    Annotations:\t    note: x",
		"    \t    volume.beta.kubernetes.io/storage-class: beta",
		"    Capacity:\t0",
		"    Access Modes:\t",
		"    VolumeMode:\tBlock",
		"    DataSource:",
		"      APIGroup:\tsnapshot.storage.k8s.io",
		"      Kind:\tVolumeSnapshot",
		"      Name:\tsnap",
		"   csi:",
		"    Type:\tCSI (a Container Storage Interface (CSI) volume source)",
		"    Driver:\td",
		"    FSType:\t",
		"    ReadOnly:\tfalse",
		"    VolumeAttributes:\t    a=1",
		"        \t    b=2",
		"   none:",
		"  <unknown>",
		"  Topology Spread Constraints:\thost:ScheduleAnyway when max skew 2 is exceeded for selector <none>",
		"  \tzone:DoNotSchedule when max skew 1 is exceeded",
		"  Node-Selectors:\t<none>",
		"  Tolerations:\t<none>",
		"  SchedulingGroup:",
		"  PodGroupName:\tg",
		"",
	}, "\n")
	got, err := DescribeTemplate(model.PodTemplate{Spec: spec})
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestDescribeTemplateRefusals checks that the describer refuses exactly
// the templates kubectl's describer crashes on (it dereferences these
// fields unchecked), naming the field, and describes the fields it used to
// refuse although kubectl prints them.
func TestDescribeTemplateRefusals(t *testing.T) {
	for _, tc := range []struct{ spec, field string }{
		{`{"spec":{"containers":[{"name":"c","readinessProbe":{"grpc":{"port":1}}}]}}`, "containers[0].probe.grpc"},
		{`{"spec":{"initContainers":[{"name":"c","securityContext":{"seccompProfile":{"type":"Localhost"}}}]}}`, "initContainers[0].securityContext.seccompProfile"},
		{`{"spec":{"volumes":[{"name":"t","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}}]}}`, "volumes[0].projected.sources[0].serviceAccountToken"},
		{`{"spec":{"volumes":[{"name":"d","azureDisk":{"diskName":"d","diskURI":"u","fsType":"ext4","cachingMode":"None","readOnly":false}}]}}`, "volumes[0].azureDisk"},
		{`{"spec":{"schedulingGroup":{}}}`, "schedulingGroup"},
		{`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1e3000"}},"env":[{"name":"E","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu"}}}]}]}}`, "containers[0].env[0].valueFrom.resourceFieldRef"},
	} {
		out, err := DescribeTemplate(model.PodTemplate{Spec: tc.spec})
		require.ErrorIs(t, err, ErrUnsupported, tc.spec)
		assert.Contains(t, err.Error(), tc.field)
		assert.Empty(t, out)
	}
	for _, spec := range []string{
		// A gRPC probe kubectl never reaches (exec comes first), an
		// unchecked azureDisk behind a hostPath, a token next to a secret.
		`{"spec":{"containers":[{"name":"c","readinessProbe":{"exec":{},"grpc":{"port":1}}}]}}`,
		`{"spec":{"volumes":[{"name":"d","hostPath":{"path":"/"},"azureDisk":{}}]}}`,
		`{"spec":{"volumes":[{"name":"t","projected":{"sources":[{"secret":{"name":"s"},"serviceAccountToken":{"path":"t"}}]}}]}}`,
		// Refused before, printed by kubectl.
		`{"spec":{"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]}}`,
		`{"spec":{"containers":[{"name":"c","env":[{"name":"E","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}}]}]}}`,
		`{"spec":{"volumes":[{"name":"n","nfs":{"server":"s","path":"/"}},{"name":"p","projected":{}}]}}`,
		`{"spec":{"containers":[{"name":"c","volumeDevices":[{"name":"b","devicePath":"/dev/b"}]}]}}`,
		`{"spec":{"schedulingGroup":{"podGroupName":"g"}}}`,
	} {
		_, err := DescribeTemplate(model.PodTemplate{Spec: spec})
		assert.NoError(t, err, spec)
	}
}
