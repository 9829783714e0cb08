package main

// environmental lists the specs a cluster without containers or a cloud
// cannot run, each with the one reason; they are skipped in every run, with
// either set of controllers. No spec is listed for controller behaviour.
// A spec's entry is a prefix of its full name (the tags such as
// [Conformance] follow).
var environmental = []struct{ spec, reason string }{
	{"[sig-apps] ReplicaSet should serve a basic image on each replica with a public image",
		"reaches each pod's web server through the API server's proxy; the stand-in kubelet runs no containers"},
	{"[sig-apps] ReplicaSet should serve a basic image on each replica with a private image",
		"the same, from a private registry of the gce provider (the suite skips it on other providers)"},
	{"[sig-apps] Deployment should not disrupt a cloud load-balancer's connectivity during rollout",
		"needs a cloud load balancer and containers answering through it (the suite skips it but on aws, azure and gce)"},
	// Containers, exec or probes.
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications",
		"breaks pod 1's readiness by kubectl exec into it (breakPodHTTPProbe moves /localhost.crt) and waits for it to go NotReady (waitForPodNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Scaling should happen in predictable order and halt if any stateful pod is unhealthy",
		"breaks readiness by kubectl exec into the pods (breakHTTPProbe moves /localhost.crt) and waits for them to be Running but not Ready (waitForRunningAndNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] Burst scaling should run to completion even with unhealthy pods",
		"breaks readiness by kubectl exec into the pods (breakHTTPProbe moves /localhost.crt) and waits for them to be Running but not Ready (waitForRunningAndNotReady); needs a kubelet that runs containers, exec and the HTTP readiness probe"},
	// Not a spec of a default cluster.
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates with maxUnavailable",
		"gated on MaxUnavailableStatefulSet, Beta and off by default in v1.36 ([Feature:OffByDefault]): with the gate off the API server drops maxUnavailable, so the feature is not exercised (the spec needs no containers otherwise)"},
	// Volumes the pods read and write through exec (the stand-in
	// provisioner gives their claims volumes, but nothing mounts them).
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should provide basic identity",
		"checks each pod's hostname and mounted volume by kubectl exec into it (ExecInStatefulPods, CheckMount, CheckHostname); needs a kubelet that runs containers and mounts volumes"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should adopt matching orphans and release non-matching pods",
		"holds each pod unready with the exec readiness probe of PauseNewPods and releases it by kubectl exec (Saturate, ResumeNextPod); needs a kubelet that runs containers and probes"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should not deadlock when a pod's predecessor fails",
		"holds pods unready with the exec readiness probe of PauseNewPods and releases them by kubectl exec (ResumeNextPod); needs a kubelet that runs containers and probes"},
	{"[sig-apps] StatefulSet Basic StatefulSet functionality [StatefulSetBasic] should perform rolling updates and roll backs of template modifications with PVCs",
		"breaks readiness by kubectl exec into a pod (rollbackTest, breakPodHTTPProbe); needs a kubelet that runs containers and probes"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working zookeeper cluster",
		"writes and reads a real zookeeper through kubectl exec; needs containers"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working mysql cluster",
		"writes and reads a real mysql-galera through kubectl exec; needs containers"},
	{"[sig-apps] StatefulSet Deploy clustered applications [Feature:StatefulSet] [Slow] should creating a working CockroachDB cluster",
		"writes and reads a real CockroachDB through kubectl exec; needs containers"},
}
