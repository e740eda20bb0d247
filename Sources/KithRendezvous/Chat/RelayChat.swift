import Crypto
import KithSync
import Synchronization

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
    public let peerStaticKey: [UInt8]
    /// Eight digits both people compare, as `1234 5678`.
    public let authenticationString: String
    private let transport: any SyncTransport
    private let sending: Mutex<NoiseCipherState>
    private let receiving: Mutex<NoiseCipherState>

    private init(transport: any SyncTransport, ciphers: NoiseTransportCiphers, peerStaticKey: [UInt8], handshakeHash: [UInt8]) {
        self.transport = transport
        sending = Mutex(ciphers.sending)
        receiving = Mutex(ciphers.receiving)
        self.peerStaticKey = peerStaticKey
        authenticationString = Self.shortAuthenticationString(handshakeHash)
    }

    /// Runs the XX handshake as `role` with `localStatic` (an identity's `dh_key`, or a fresh key
    /// to chat anonymously); each handshake message is one frame.
    public static func establish(over transport: any SyncTransport, role: RelayRole, localStatic: Curve25519.KeyAgreement.PrivateKey) async throws(ChatError) -> RelayChat {
        var handshake: NoiseHandshakeState
        do throws(NoiseError) {
            handshake = try NoiseHandshakeState(
                protocolName: ChatLimits.protocolName, isInitiator: role == .initiator, prologue: ChatLimits.prologue, localStatic: localStatic)
        } catch {
            throw .handshake(error)
        }
        while !handshake.isComplete {
            if handshake.isMyTurn {
                let message: [UInt8]
                do throws(NoiseError) { message = try handshake.writeMessage(payload: []) } catch { throw .handshake(error) }
                do throws(SyncTransportError) { try await transport.send(message) } catch { throw .transport(error) }
            } else {
                let message: [UInt8]
                do throws(SyncTransportError) { message = try await transport.receive() } catch { throw .transport(error) }
                let payload: [UInt8]
                do throws(NoiseError) { payload = try handshake.readMessage(message) } catch { throw .handshake(error) }
                guard payload.isEmpty else { throw .malformedMessage }
            }
        }
        guard let peer = handshake.remoteStaticKey else { throw .handshake(.missingKey("remote static")) }
        let ciphers: NoiseTransportCiphers
        do throws(NoiseError) { ciphers = try handshake.transportCiphers() } catch { throw .handshake(error) }
        return RelayChat(transport: transport, ciphers: ciphers, peerStaticKey: peer, handshakeHash: handshake.handshakeHash)
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
        let sealed: [UInt8]
        do throws(NoiseError) {
            sealed = try sending.withLock { cipher throws(NoiseError) in try cipher.encrypt(associatedData: [], plaintext: message.bytes) }
        } catch {
            throw .handshake(error)
        }
        do throws(SyncTransportError) { try await transport.send(sealed) } catch { throw .transport(error) }
    }

    /// The next message from the other side.
    public func receive() async throws(ChatError) -> ChatMessage {
        let sealed: [UInt8]
        do throws(SyncTransportError) { sealed = try await transport.receive() } catch { throw .transport(error) }
        let plaintext: [UInt8]
        do throws(NoiseError) {
            plaintext = try receiving.withLock { cipher throws(NoiseError) in try cipher.decrypt(associatedData: [], ciphertext: sealed) }
        } catch {
            throw .authenticationFailed
        }
        return try ChatMessage(bytes: plaintext)
    }
}
