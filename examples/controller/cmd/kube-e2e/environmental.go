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
}
