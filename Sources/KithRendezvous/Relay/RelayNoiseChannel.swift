import Crypto
import KithSync
import Synchronization

/// An end-to-end encrypted channel over a relay (or any `SyncTransport`): a Noise handshake whose messages are one
/// frame each, then one sealed frame per message. ``RelayChat`` and ``RecoveryRelay`` run on it; the server relays
/// only ciphertext.
///
/// Send from one task and receive from one task (they may run at the same time).
public final class RelayNoiseChannel: Sendable {
    /// The other side's Noise static public key (32 bytes).
    public let peerStaticKey: [UInt8]
    /// The handshake hash, for a code both people compare.
    public let handshakeHash: [UInt8]
    /// The largest plaintext one message carries: the relay's frame less the 16-byte tag.
    public static let maximumPlaintextBytes = SyncLimits.maximumMTU - 16
    private let transport: any SyncTransport
    private let sending: Mutex<NoiseCipherState>
    private let receiving: Mutex<NoiseCipherState>

    private init(transport: any SyncTransport, ciphers: NoiseTransportCiphers, peerStaticKey: [UInt8], handshakeHash: [UInt8]) {
        self.transport = transport
        sending = Mutex(ciphers.sending)
        receiving = Mutex(ciphers.receiving)
        self.peerStaticKey = peerStaticKey
        self.handshakeHash = handshakeHash
    }

    /// Runs the handshake `protocolName` (a pattern that carries both static keys, such as XX) as `role` with
    /// `localStatic`, bound to `prologue`; each handshake message is one frame and carries no payload.
    public static func establish(
        over transport: any SyncTransport, role: RelayRole, localStatic: Curve25519.KeyAgreement.PrivateKey, protocolName: String, prologue: [UInt8]
    ) async throws(RelayChannelError) -> RelayNoiseChannel {
        var handshake: NoiseHandshakeState
        do throws(NoiseError) {
            handshake = try NoiseHandshakeState(protocolName: protocolName, isInitiator: role == .initiator, prologue: prologue, localStatic: localStatic)
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
                guard payload.isEmpty else { throw .unexpectedHandshakePayload }
            }
        }
        guard let peer = handshake.remoteStaticKey else { throw .handshake(.missingKey("remote static")) }
        let ciphers: NoiseTransportCiphers
        do throws(NoiseError) { ciphers = try handshake.transportCiphers() } catch { throw .handshake(error) }
        return RelayNoiseChannel(transport: transport, ciphers: ciphers, peerStaticKey: peer, handshakeHash: handshake.handshakeHash)
    }

    /// Seals `plaintext` (at most ``maximumPlaintextBytes``) and sends it as one frame.
    public func send(_ plaintext: [UInt8]) async throws(RelayChannelError) {
        guard plaintext.count <= Self.maximumPlaintextBytes else { throw .messageTooLarge(plaintext.count) }
        let sealed: [UInt8]
        do throws(NoiseError) {
            sealed = try sending.withLock { cipher throws(NoiseError) in try cipher.encrypt(associatedData: [], plaintext: plaintext) }
        } catch {
            throw .handshake(error)
        }
        do throws(SyncTransportError) { try await transport.send(sealed) } catch { throw .transport(error) }
    }

    /// The next message from the other side, opened.
    /// - Throws: ``RelayChannelError/authenticationFailed`` for a frame that does not open (tampered, replayed,
    ///   reordered), ``RelayChannelError/transport(_:)`` when the relay ends.
    public func receive() async throws(RelayChannelError) -> [UInt8] {
        let sealed: [UInt8]
        do throws(SyncTransportError) { sealed = try await transport.receive() } catch { throw .transport(error) }
        do throws(NoiseError) {
            return try receiving.withLock { cipher throws(NoiseError) in try cipher.decrypt(associatedData: [], ciphertext: sealed) }
        } catch {
            throw .authenticationFailed
        }
    }
}
