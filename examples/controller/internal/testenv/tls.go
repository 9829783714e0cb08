package testenv

import "crypto/tls"

// insecureTLS trusts the API server's self-signed loopback certificate.
func insecureTLS() *tls.Config {
	return &tls.Config{InsecureSkipVerify: true} //nolint:gosec // loopback test server with a generated certificate
}
