import Crypto
import KithSync

/// A live two-person chat over a relay (or any ``SyncTransport``), end-to-end encrypted with a
/// Noise XX handshake and its transport ciphers: the server relays only ciphertext.
///
/// Both sides print ``authenticationString`` (derived from the handshake hash); when the two
/// strings match, nobody sits in the middle. ``peerStaticKey`` is the other side's static key: a
/// contact's `dh_key` when it chats under its identity, a fresh key when it chats anonymously.
///
/// Send from one task and receive from one task (they may run at the same time).
public final class RelayChat: Sendable {
    /// The other side's Noise static public key (32 bytes).
    public var peerStaticKey: [UInt8] { channel.peerStaticKey }
    /// Eight digits both people compare, as `1234 5678`.
    public let authenticationString: String
    private let channel: RelayNoiseChannel

    private init(channel: RelayNoiseChannel) {
        self.channel = channel
        authenticationString = Self.shortAuthenticationString(channel.handshakeHash)
    }

    /// Runs the XX handshake as `role` with `localStatic` (an identity's `dh_key`, or a fresh key
    /// to chat anonymously); each handshake message is one frame.
    public static func establish(over transport: any SyncTransport, role: RelayRole, localStatic: Curve25519.KeyAgreement.PrivateKey) async throws(ChatError) -> RelayChat {
        do throws(RelayChannelError) {
            return RelayChat(channel: try await RelayNoiseChannel.establish(
                over: transport, role: role, localStatic: localStatic, protocolName: ChatLimits.protocolName, prologue: ChatLimits.prologue))
        } catch {
            throw ChatError(error)
        }
    }

    /// Eight decimal digits from SHA-256 of a label and the handshake hash.
    static func shortAuthenticationString(_ handshakeHash: [UInt8]) -> String {
        let digest = Array(SHA256.hash(data: Array("kith-chat-sas-v1".utf8) + handshakeHash))
        let number = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 100_000_000
        let digits = String(number)
        let padded = String(repeating: "0", count: 8 - digits.count) + digits
        return padded.prefix(4) + " " + padded.suffix(4)
    }

    /// Sends one line.
    /// - Throws: ``ChatError/lineTooLong(_:)`` above ``ChatLimits/maximumLineBytes``.
    public func send(_ text: String) async throws(ChatError) {
        guard text.utf8.count <= ChatLimits.maximumLineBytes else { throw .lineTooLong(text.utf8.count) }
        try await send(.line(text))
    }

    /// After a reconnection, tells the other side how many of its lines arrived (``ChatMessage/resume(receivedLines:)``),
    /// before any other message.
    public func resume(receivedLines: UInt32) async throws(ChatError) {
        try await send(.resume(receivedLines: receivedLines))
    }

    /// Tells the other side the chat ends (best effort).
    public func sayBye() async {
        try? await send(.bye)
    }

    private func send(_ message: ChatMessage) async throws(ChatError) {
        do throws(RelayChannelError) { try await channel.send(message.bytes) } catch { throw ChatError(error) }
    }

    /// The next message from the other side.
    public func receive() async throws(ChatError) -> ChatMessage {
        let plaintext: [UInt8]
        do throws(RelayChannelError) { plaintext = try await channel.receive() } catch { throw ChatError(error) }
        return try ChatMessage(bytes: plaintext)
    }
}

extension ChatError {
    /// The chat's wording of a channel failure.
    init(_ error: RelayChannelError) {
        switch error {
        case .transport(let cause): self = .transport(cause)
        case .handshake(let cause): self = .handshake(cause)
        case .unexpectedHandshakePayload, .messageTooLarge: self = .malformedMessage
        case .authenticationFailed: self = .authenticationFailed
        }
    }
}
