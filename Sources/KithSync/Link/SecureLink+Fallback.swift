extension SecureLink {
    /// Dials and initiates within one sync attempt: IK (one round trip) when the responder's
    /// static key is known, falling back to XX on a **new** connection when the IK handshake fails.
    ///
    /// An IK responder that cannot complete the handshake (it rotated its static key, so `es`
    /// does not decrypt; or it accepts only XX) closes the connection without a reply. The
    /// initiator then dials again with `dial` and runs XX, in which the responder reveals its
    /// current static key encrypted to this side's ephemeral key; the allow-list decides as usual.
    /// No fallback happens when this side's own allow-list refuses the known key, for a
    /// transport whose MTU is unusable, or when the peer's Hello was invalid.
    ///
    /// - Parameters:
    ///   - dial: opens a fresh transport to the same peer (called once, or twice on fallback).
    ///   - responderStaticKey: the key to try IK with; nil runs XX directly.
    /// - Returns: the link; ``SecureLink/pattern`` tells which handshake succeeded.
    /// - Throws: ``SecureLinkError``: the XX failure after a fallback, or the IK failure when no
    ///   fallback applies; ``SecureLinkError/transport(_:)`` when dialing fails.
    public static func connect(
        dialing dial: @Sendable () async throws(SyncTransportError) -> any SyncTransport,
        configuration: SecureLinkConfiguration,
        responderStaticKey: [UInt8]?
    ) async throws(SecureLinkError) -> SecureLink {
        if let responderStaticKey {
            let transport: any SyncTransport
            do { transport = try await dial() } catch { throw .transport(error) }
            do {
                return try await connect(over: transport, configuration: configuration, responderStaticKey: responderStaticKey)
            } catch {
                guard error.allowsFallbackToXX else { throw error }
            }
        }
        let transport: any SyncTransport
        do { transport = try await dial() } catch { throw .transport(error) }
        return try await connect(over: transport, configuration: configuration, responderStaticKey: nil)
    }
}

extension SecureLinkError {
    /// True when a failed IK attempt may be retried with XX: the responder could not or would not
    /// complete IK (silence, a closed connection, a handshake that does not decrypt).
    var allowsFallbackToXX: Bool {
        switch self {
        case .peerNotAllowed, .unsupportedMTU, .invalidHello, .nonceExhausted, .concurrentReceive: false
        default: true
        }
    }
}
