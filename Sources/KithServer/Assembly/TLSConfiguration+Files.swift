import NIOSSL

extension TLSConfiguration {
    /// The server TLS configuration of `kith serve --tls-cert FILE --tls-key FILE`: the PEM certificate chain (leaf
    /// first) and its PEM private key, ALPN `http/1.1`, swift-nio-ssl's defaults otherwise (TLS 1.2 and 1.3).
    ///
    /// The pair is tried at once, so a missing file, a key that does not match the certificate or an unreadable PEM
    /// fails when the server starts, not at the first handshake.
    static func server(certificateFile: String, keyFile: String) throws(ServerAssemblyError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certificateFile) } catch {
            throw .invalidSetting("--tls-cert \(certificateFile): not a readable PEM certificate chain")
        }
        guard !chain.isEmpty else { throw .invalidSetting("--tls-cert \(certificateFile): holds no certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: keyFile, format: .pem) } catch {
            throw .invalidSetting("--tls-key \(keyFile): not a readable PEM private key")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.applicationProtocols = ["http/1.1"]
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw .invalidSetting("--tls-cert and --tls-key do not make a TLS context (does the key belong to the certificate?)")
        }
        return configuration
    }
}
