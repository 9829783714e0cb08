package main

// environmental lists the specs a cluster without containers or a cloud
// cannot run, each with the one reason; they are skipped in every run, with
// either set of controllers. No spec is listed for controller behaviour.
var environmental = []struct{ spec, reason string }{
	{"[sig-apps] ReplicaSet should serve a basic image on each replica with a public image",
		"reaches each pod's web server through the API server's proxy; the stand-in kubelet runs no containers"},
	{"[sig-apps] ReplicaSet should serve a basic image on each replica with a private image",
		"the same, from a private registry of the gce provider (the suite skips it on other providers)"},
	{"[sig-apps] Deployment should not disrupt a cloud load-balancer's connectivity during rollout",
		"needs a cloud load balancer and containers answering through it (the suite skips it but on aws, azure and gce)"},
	// --- would FAIL on this cluster (must be skipped) ---
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications",
		"breaks pod 1's readiness by kubectl exec into it (breakPodHTTPProbe moves /localhost.crt) and waits for it to go NotReady (waitForPodNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Scaling should happen in predictable order and halt if any stateful pod is unhealthy",
		"breaks readiness by kubectl exec into the pods (breakHTTPProbe moves /localhost.crt) and waits for them to be Running but not Ready (waitForRunningAndNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Burst scaling should run to completion even with unhealthy pods",
		"breaks readiness by kubectl exec into the pods (breakHTTPProbe moves /localhost.crt) and waits for them to be Running but not Ready (waitForRunningAndNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	// --- off-by-default feature gate: not a default-cluster spec ---
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates with maxUnavailable",
		"gated on MaxUnavailableStatefulSet, Beta and off by default in v1.36 ([Feature:OffByDefault]): with the gate off the API server drops maxUnavailable, so the feature is not exercised (the spec needs no containers otherwise)"},
	// --- skipped by the suite itself without a default StorageClass (e2epv.SkipIfNoDefaultStorageClass);
	//     listing them only turns a Ginkgo "skipped" into a skip by name ---
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should provide basic identity",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one); it also execs into the pods (ExecInStatefulPods, CheckMount, CheckHostname)"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should adopt matching orphans and release non-matching pods",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one); Saturate also needs the exec readiness probe of PauseNewPods and kubectl exec (ResumeNextPod)"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should not deadlock when a pod's predecessor fails",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one); it also needs the exec readiness probe of PauseNewPods and kubectl exec (ResumeNextPod)"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications with PVCs",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one); rollbackTest also breaks readiness by kubectl exec"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working zookeeper cluster",
		"needs a dynamic PV provisioner / default StorageClass (the suite skips it without one) and a real zookeeper: it writes and reads through kubectl exec"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working mysql cluster",
		"needs a dynamic PV provisioner / default StorageClass (the suite skips it without one) and a real mysql-galera: it writes and reads through kubectl exec"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working CockroachDB cluster",
		"needs a dynamic PV provisioner / default StorageClass (the suite skips it without one) and a real CockroachDB: it writes and reads through kubectl exec"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should delete PVCs with a WhenDeleted policy",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-2)"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should delete PVCs with a OnScaledown policy",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-2)"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should not delete PVC with OnScaledown policy if another controller owns the PVC",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-2)"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should delete PVCs after adopting pod (WhenDeleted)",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-2)"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should delete PVCs after adopting pod (WhenScaled)",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-2)"},
	{"[sig-apps] StatefulSet Non-retain StatefulSetPersistentVolumeClaimPolicy should not delete PVCs when there is another controller",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplates (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and OrderedReady never creates pods and PVCs 1-3)"},
	{"[sig-apps] StatefulSet Automatically recreate PVC for pending pod when PVC is missing PVC should be recreated when pod is pending due to missing PVC",
		"needs a dynamic PV provisioner / default StorageClass for its volumeClaimTemplate (the suite skips it without one; otherwise pod-0 stays Pending on its unbound PVC and WaitForStatusReadyReplicas(1) times out); also [Disruptive] [Serial]: it cordons a node"},
}
