import Crypto
import KithContinuity
import KithSync

/// One guardian's turn of a recovery through a join-code relay (docs/CONTINUITY.md section 6, "Releases through a
/// join-code relay"): the new device and one guardian meet in a room, open an anonymous Noise XX channel (fresh keys
/// on both sides, so a passive relay sees neither the request nor the release), the new device sends its request, the
/// guardian answers with a release or a decline, and the new device says whether it kept the release.
///
/// The relay is untrusted: an active relay can sit in the middle of the channel, but then the request the guardian
/// sees is the relay's, and its safety code differs from the one the person reads aloud; a release is sealed to the
/// request's key and bound to its nonce, so a relay can neither open nor redirect it, and a replayed one is refused by
/// the new device's collector. Every message is one relay frame, read through the bounded decoders of
/// `KithContinuity`.
public enum RecoveryRelay {
    /// The Noise pattern: both static keys are fresh and travel encrypted.
    static let protocolName = "Noise_XX_25519_ChaChaPoly_SHA256"
    /// Binds the handshake to this use (a chat's handshake cannot be taken for it).
    static let prologue = Array("kith-recovery-relay-v1".utf8)

    /// The new device's side: sends `request`, waits for the guardian's answer and, for a release, tells the
    /// guardian whether `keep` kept it.
    ///
    /// - Parameter keep: opens the release against the pending request and keeps it; false when it is refused (does
    ///   not open, replayed, another set). The refusal is sent back to the guardian.
    /// - Throws: ``RecoveryRelayError`` when the relay ends or times out, a frame fails authentication, or the guardian
    ///   sends a malformed message or one out of turn.
    public static func ask(
        over transport: any SyncTransport, role: RelayRole, request: RecoveryRequest, keep: @Sendable (RecoveryRelease) async -> Bool
    ) async throws(RecoveryRelayError) -> RecoveryRelayOutcome {
        let channel = try await open(over: transport, role: role)
        try await send(.request(request), on: channel)
        switch try await receive(on: channel) {
        case .declined:
            return .declined
        case .release(let release):
            let kept = await keep(release)
            try await send(kept ? .accepted : .refused, on: channel)
            return kept ? .kept(release) : .refused(release)
        case let other:
            throw .unexpectedMessage(got: other.name)
        }
    }

    /// The guardian's side: waits for the request, asks `release` for the release to send (after the safety codes
    /// were compared; nil sends a decline and nothing else), and waits for the new device's verdict.
    ///
    /// - Throws: ``RecoveryRelayError`` when the relay ends or times out, a frame fails authentication, or the new
    ///   device sends a malformed message or one out of turn.
    public static func answer(
        over transport: any SyncTransport, role: RelayRole, release: @Sendable (RecoveryRequest) async -> RecoveryRelease?
    ) async throws(RecoveryRelayError) -> RecoveryRelayAnswer {
        let channel = try await open(over: transport, role: role)
        let request: RecoveryRequest
        switch try await receive(on: channel) {
        case .request(let received): request = received
        case let other: throw .unexpectedMessage(got: other.name)
        }
        guard let sealed = await release(request) else {
            try await send(.declined, on: channel)
            return .declined
        }
        try await send(.release(sealed), on: channel)
        switch try await receive(on: channel) {
        case .accepted: return .kept
        case .refused: return .refused
        case let other: throw .unexpectedMessage(got: other.name)
        }
    }

    private static func open(over transport: any SyncTransport, role: RelayRole) async throws(RecoveryRelayError) -> RelayNoiseChannel {
        do throws(RelayChannelError) {
            return try await RelayNoiseChannel.establish(
                over: transport, role: role, localStatic: Curve25519.KeyAgreement.PrivateKey(), protocolName: protocolName, prologue: prologue)
        } catch {
            throw .channel(error)
        }
    }

    private static func send(_ message: RecoveryRelayMessage, on channel: RelayNoiseChannel) async throws(RecoveryRelayError) {
        do throws(RelayChannelError) { try await channel.send(message.encoded) } catch { throw .channel(error) }
    }

    private static func receive(on channel: RelayNoiseChannel) async throws(RecoveryRelayError) -> RecoveryRelayMessage {
        let bytes: [UInt8]
        do throws(RelayChannelError) { bytes = try await channel.receive() } catch { throw .channel(error) }
        return try RecoveryRelayMessage(decoding: bytes)
    }
}
