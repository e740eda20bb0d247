import NIOSSL

/// The mock server's self-signed certificate and key (see README.md next to this file) and the
/// matching TLS configurations: the client trusts only this certificate and checks the host name.
enum MockTLS {
    static let certificatePEM = """
-----BEGIN CERTIFICATE-----
MIIBzzCCAXagAwIBAgIUb6SjNYr7cCpMQa4BnvQq/nRrZo4wCgYIKoZIzj0EAwIw
JTEjMCEGA1UEAwwaS2l0aCBwdXNoIG1vY2sgKHRlc3Qgb25seSkwIBcNMjYxMTI0
MjIyNjU3WhgPMjEyNjEwMzEyMjI2NTdaMCUxIzAhBgNVBAMMGktpdGggcHVzaCBt
b2NrICh0ZXN0IG9ubHkpMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEKdRFF7rN
CtMsHKSxJJHKwwl0YpXaIia6YDhqKtwVDfPeCN81ReU+/fdPTVURDxPVFv88zixi
W5p5+HPDmRXbuqOBgTB/MB0GA1UdDgQWBBQ2Nfl6oppnWdqWn2VPKVUdyur/yjAf
BgNVHSMEGDAWgBQ2Nfl6oppnWdqWn2VPKVUdyur/yjAaBgNVHREEEzARhwR/AAAB
gglsb2NhbGhvc3QwDAYDVR0TAQH/BAIwADATBgNVHSUEDDAKBggrBgEFBQcDATAK
BggqhkjOPQQDAgNHADBEAiA/ylv7DjPqAC9zsb9w+bEhA9mItpR2mceJCZCEOiHd
PAIgI0eJKvx8WtZKWiQj9P7AS0hkkPzShGPRqxiSYWLh0PA=
-----END CERTIFICATE-----
"""

    static let privateKeyPEM = """
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgx9K9D69DuYNAqOge
FOqJX26lYCCiy8kJM7Bv5QnB1H+hRANCAAQp1EUXus0K0ywcpLEkkcrDCXRildoi
JrpgOGoq3BUN894I3zVF5T79909NVREPE9UW/zzOLGJbmnn4c8OZFdu6
-----END PRIVATE KEY-----
"""

    /// The server side: the certificate, ALPN `h2` only (as APNs).
    static func serverConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.applicationProtocols = ["h2"]
        return configuration
    }

    /// The client side: trusts the mock certificate alone, full verification including the host name.
    static func clientConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([certificate])
        configuration.certificateVerification = .fullVerification
        return configuration
    }
}
