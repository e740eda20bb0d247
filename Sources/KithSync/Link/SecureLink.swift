import Crypto
import KithCanonical

/// A mutually authenticated, encrypted frame channel over a ``SyncTransport``.
///
/// ``connect(over:configuration:responderStaticKey:)`` runs Noise XX (or IK when the responder's
/// static key is known) and ``accept(over:configuration:)`` answers either. Each side checks the
/// peer's static key with its allow-list before sending anything but handshake bytes, so a
/// non-contact never sees a feed id or a sequence number. Versions and capabilities travel
/// encrypted inside the handshake (``SyncHello``).
///
/// After the handshake every link message is a sealed frame,
///
///     nonce_low u16 | ChaCha20-Poly1305(plaintext records) | tag 16
///
/// carrying as many records as fit ``FrameLayout/plaintextCapacity`` (``enqueue(_:)`` batches,
/// ``flush()`` seals) and spanning up to 16 link frames, so the nonce and tag are paid once per
/// batch of messages rather than once per link frame,
/// where `nonce_low` is the low 16 bits of the Noise transport nonce: the receiver rebuilds the
/// full 64-bit nonce as the smallest value above the last one it accepted, so lost frames are
/// tolerated while tampered, replayed or reordered frames fail authentication and close the link.
/// A passive observer sees only ephemeral keys, ciphertext and frame lengths.
public actor SecureLink {
    /// The peer's authenticated static public key (32 bytes).
    public nonisolated let peerStaticKey: [UInt8]
    /// What both Hellos agreed on.
    public nonisolated let negotiated: SyncHello
    /// The frame layout for the transport's MTU.
    public nonisolated let layout: FrameLayout
    /// The Noise handshake hash (a channel binding).
    public nonisolated let handshakeHash: [UInt8]
    /// True when this side initiated.
    public nonisolated let isInitiator: Bool
    /// The handshake pattern that established the link.
    public nonisolated let pattern: SecureLinkPattern

    private let transport: any SyncTransport
    private let padsFramesToFullSize: Bool
    private var sendCipher: NoiseCipherState
    private var receiveCipher: NoiseCipherState
    private var segmenter: LinkSegmenter
    private var reassembler: LinkSegmentReassembler
    private var inbox: [SyncFrame] = []
    private var outgoing: [UInt8] = []
    private var inboxStart = 0
    private var receiving = false
    private var sending = false
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var closed = false
    /// Set when the transport refused a frame: sending stops, but frames the transport already
    /// received can still be read (a dropped radio link delivers what arrived before the drop).
    private var sendFailure: SecureLinkError?

    /// Sealed frames sent and received.
    public private(set) var sealedFramesSent = 0
    /// Sealed frames received and authenticated.
    public private(set) var sealedFramesReceived = 0

    private init(
        transport: any SyncTransport,
        channel: HandshakeChannel,
        handshake: NoiseHandshakeState,
        peerHello: SyncHello,
        configuration: SecureLinkConfiguration,
        layout: FrameLayout,
        pattern: SecureLinkPattern
    ) throws(NoiseError) {
        self.pattern = pattern
        let ciphers = try handshake.transportCiphers()
        self.transport = transport
        self.sendCipher = ciphers.sending
        self.receiveCipher = ciphers.receiving
        self.segmenter = channel.segmenter
        self.reassembler = channel.reassembler
        self.peerStaticKey = handshake.remoteStaticKey ?? []
        self.negotiated = configuration.hello.negotiated(with: peerHello)
        self.layout = layout
        self.handshakeHash = handshake.handshakeHash
        self.isInitiator = handshake.isInitiator
        self.padsFramesToFullSize = configuration.padsFramesToFullSize
    }

    // MARK: Handshake

    /// Initiates: XX when `responderStaticKey` is nil, IK (one round trip) when it is known.
    /// - Throws: ``SecureLinkError``; ``SecureLinkError/peerNotAllowed`` when the responder is not a contact.
    public static func connect(
        over transport: any SyncTransport,
        configuration: SecureLinkConfiguration,
        responderStaticKey: [UInt8]? = nil
    ) async throws(SecureLinkError) -> SecureLink {
        let layout = try FrameLayout(mtu: transport.mtu)
        var channel = HandshakeChannel(transport: transport)
        let pattern: SecureLinkPattern = responderStaticKey == nil ? .xx : .ik
        do {
            var handshake = try NoiseHandshakeState(
                protocolName: pattern.protocolName,
                isInitiator: true,
                prologue: pattern.prologue,
                localStatic: configuration.localStatic,
                remoteStatic: responderStaticKey
            )
            let peerHello: SyncHello
            switch pattern {
            case .xx:
                try await channel.send([pattern.rawValue] + handshake.writeMessage(payload: []))
                let helloBytes = try handshake.readMessage(try await channel.receive())
                try await requireAllowed(handshake.remoteStaticKey, configuration: configuration, transport: transport)
                peerHello = try decodeHello(helloBytes)
                try await channel.send(try handshake.writeMessage(payload: configuration.hello.encoded))
            case .ik:
                try await requireAllowed(responderStaticKey, configuration: configuration, transport: transport)
                try await channel.send([pattern.rawValue] + handshake.writeMessage(payload: configuration.hello.encoded))
                peerHello = try decodeHello(try handshake.readMessage(try await channel.receive()))
            }
            return try SecureLink(
                transport: transport, channel: channel, handshake: handshake,
                peerHello: peerHello, configuration: configuration, layout: layout, pattern: pattern
            )
        } catch {
            throw await abort(transport, error)
        }
    }

    /// Responds to an initiator speaking XX or IK.
    /// - Throws: ``SecureLinkError``; ``SecureLinkError/peerNotAllowed`` when the initiator is not a contact
    ///   (checked before this side sends anything beyond handshake bytes).
    public static func accept(
        over transport: any SyncTransport,
        configuration: SecureLinkConfiguration
    ) async throws(SecureLinkError) -> SecureLink {
        let layout = try FrameLayout(mtu: transport.mtu)
        var channel = HandshakeChannel(transport: transport)
        do {
            let first = try await channel.receive()
            guard let selector = first.first else { throw SecureLinkError.handshake(.messageTooShort) }
            guard let pattern = SecureLinkPattern(rawValue: selector), configuration.acceptedPatterns.contains(pattern) else {
                throw SecureLinkError.unsupportedPattern(selector)
            }
            var handshake = try NoiseHandshakeState(
                protocolName: pattern.protocolName,
                isInitiator: false,
                prologue: pattern.prologue,
                localStatic: configuration.localStatic
            )
            let peerHello: SyncHello
            switch pattern {
            case .xx:
                _ = try handshake.readMessage(Array(first.dropFirst()))
                try await channel.send(try handshake.writeMessage(payload: configuration.hello.encoded))
                let helloBytes = try handshake.readMessage(try await channel.receive())
                try await requireAllowed(handshake.remoteStaticKey, configuration: configuration, transport: transport)
                peerHello = try decodeHello(helloBytes)
            case .ik:
                let helloBytes: [UInt8]
                (handshake, helloBytes) = try readIKFirstMessage(Array(first.dropFirst()), fresh: handshake, configuration: configuration)
                try await requireAllowed(handshake.remoteStaticKey, configuration: configuration, transport: transport)
                peerHello = try decodeHello(helloBytes)
                try await channel.send(try handshake.writeMessage(payload: configuration.hello.encoded))
            }
            return try SecureLink(
                transport: transport, channel: channel, handshake: handshake,
                peerHello: peerHello, configuration: configuration, layout: layout, pattern: pattern
            )
        } catch {
            throw await abort(transport, error)
        }
    }

    /// Reads IK message 1 with the local static key, or, when that fails to decrypt it and an
    /// alternate static key is configured, with a fresh handshake state under the alternate key.
    private static func readIKFirstMessage(
        _ message: [UInt8], fresh: NoiseHandshakeState, configuration: SecureLinkConfiguration
    ) throws(NoiseError) -> (NoiseHandshakeState, [UInt8]) {
        var handshake = fresh
        do {
            let payload = try handshake.readMessage(message)
            return (handshake, payload)
        } catch {
            guard let alternate = configuration.alternateStatic else { throw error }
            var retry = try NoiseHandshakeState(
                protocolName: SecureLinkPattern.ik.protocolName, isInitiator: false,
                prologue: SecureLinkPattern.ik.prologue, localStatic: alternate
            )
            let payload = try retry.readMessage(message)
            return (retry, payload)
        }
    }

    private static func requireAllowed(
        _ key: [UInt8]?, configuration: SecureLinkConfiguration, transport: any SyncTransport
    ) async throws(SecureLinkError) {
        guard let key, await configuration.isAllowed(key) else { throw .peerNotAllowed }
    }

    private static func decodeHello(_ bytes: [UInt8]) throws(SecureLinkError) -> SyncHello {
        do { return try SyncHello(decoding: bytes) } catch { throw .invalidHello(error) }
    }

    private static func abort(_ transport: any SyncTransport, _ error: any Error) async -> SecureLinkError {
        await transport.close()
        if let error = error as? SecureLinkError { return error }
        if let error = error as? NoiseError { return .handshake(error) }
        return .closed
    }

    // MARK: Frames

    /// Sends records now: appends them to the outgoing buffer, then seals and transmits everything
    /// buffered (``enqueue(_:)`` followed by ``flush()``).
    ///
    /// Concurrent calls are serialized; each call's records are sent contiguously and in order.
    public func send(_ frames: [SyncFrame]) async throws(SecureLinkError) {
        try await enqueue(frames)
        try await flush()
    }

    /// Sends one record now.
    public func send(_ frame: SyncFrame) async throws(SecureLinkError) {
        try await send([frame])
    }

    /// Appends records to the outgoing buffer. Whenever the next record would not fit the sealed
    /// frame being filled, the buffered records are sealed and transmitted as one sealed frame;
    /// records still buffered leave with the next ``flush()`` (or ``close()``).
    ///
    /// Batching is what keeps the overhead small: one nonce, one tag and one segment header per link
    /// frame are shared by every record of a sealed frame (several messages, their acks...).
    public func enqueue(_ frames: [SyncFrame]) async throws(SecureLinkError) {
        guard !closed else { throw .closed }
        var ready: [[UInt8]] = []
        for frame in frames {
            let record: [UInt8]
            do { record = try frame.encoded() } catch { throw .malformedRecord(error) }
            guard record.count <= layout.plaintextCapacity else {
                throw .recordTooLarge(record.count, capacity: layout.plaintextCapacity)
            }
            if outgoing.count + record.count > layout.plaintextCapacity {
                ready.append(outgoing)
                outgoing = []
                outgoing.reserveCapacity(layout.plaintextCapacity)
            }
            outgoing += record
        }
        if !ready.isEmpty { try await transmit(ready) }
    }

    /// Seals and transmits the records buffered by ``enqueue(_:)``, if any.
    public func flush() async throws(SecureLinkError) {
        guard !outgoing.isEmpty else { return }
        guard !closed else { throw .closed }
        let plaintext = outgoing
        outgoing = []
        try await transmit([plaintext])
    }

    /// Bytes of records buffered for sending.
    public var bufferedOutgoingBytes: Int { outgoing.count }

    /// Declares that a task other than the reader is about to send (see ``SyncTransport/sendingBegan()``).
    public nonisolated func sendingBegan() async { await transport.sendingBegan() }

    /// Ends one ``sendingBegan()``.
    public nonisolated func sendingEnded() async { await transport.sendingEnded() }

    /// True when records of an already received sealed frame are waiting to be returned by ``receive()``.
    public var hasPendingRecords: Bool { inboxStart < inbox.count }

    /// Seals and transmits plaintexts in order. The plaintexts were taken from the buffer before
    /// the first suspension, and send turns are granted first come first served, so nonces follow
    /// the order in which records were enqueued.
    private func transmit(_ plaintexts: [[UInt8]]) async throws(SecureLinkError) {
        await acquireSendTurn()
        defer { releaseSendTurn() }
        for plaintext in plaintexts {
            guard !closed else { throw .closed }
            if let sendFailure { throw sendFailure }
            let sealed = try seal(plaintext)
            for frame in segmenter.segments(of: sealed, mtu: layout.mtu) {
                do {
                    try await transport.send(frame)
                } catch {
                    // Not fatal for receiving: what already arrived is still read; receive() closes
                    // the link once the transport has nothing more to deliver.
                    let failure = SecureLinkError.transport(error)
                    if sendFailure == nil { sendFailure = failure }
                    throw failure
                }
            }
            sealedFramesSent += 1
        }
    }

    /// Waits for the next record.
    public func receive() async throws(SecureLinkError) -> SyncFrame {
        if let next = takeFromInbox() { return next }
        guard !closed else { throw .closed }
        guard !receiving else { throw .concurrentReceive }
        receiving = true
        defer { receiving = false }
        while true {
            let frame: [UInt8]
            do { frame = try await transport.receive() } catch { throw await fail(.transport(error)) }
            let message: [UInt8]?
            do { message = try reassembler.accept(frame) } catch { throw await fail(error) }
            guard let message else { continue }
            let plaintext: [UInt8]
            do { plaintext = try open(message) } catch { throw await fail(error) }
            let records: [SyncFrame]
            do { records = try SyncFrame.decodeAll(plaintext) } catch { throw await fail(.malformedRecord(error)) }
            sealedFramesReceived += 1
            guard let first = records.first else { continue }
            inbox.append(contentsOf: records.dropFirst())
            return first
        }
    }

    /// Link messages the segment layer discarded because link frames were lost.
    public var damagedLinkMessages: Int { reassembler.damagedMessages }

    /// Sends what ``enqueue(_:)`` buffered (best effort), then closes the link and the transport.
    public func close() async {
        guard !closed else { return }
        try? await flush()
        guard !closed else { return }
        closed = true
        await transport.close()
    }

    // MARK: Sealing

    private func seal(_ plaintext: [UInt8]) throws(SecureLinkError) -> [UInt8] {
        var padded = plaintext
        if padsFramesToFullSize {
            // Pad so the sealed frame fills whole link frames: link frame lengths then reveal
            // nothing, only the number of link frames per sealed frame does.
            let overhead = SyncLimits.sealedNonceLength + SyncLimits.tagLength
            let perFrame = layout.segmentPayloadLength
            let frames = (padded.count + overhead + perFrame - 1) / perFrame
            let target = min(frames * perFrame, layout.sealedFrameLength) - overhead
            if padded.count < target {
                padded.append(SyncFrame.Kind.padding.rawValue)
                padded += [UInt8](repeating: 0, count: target - padded.count)
            }
        }
        let nonce = sendCipher.nonce
        guard nonce < SyncLimits.maximumFramesPerLink else { throw .nonceExhausted }
        let ciphertext: [UInt8]
        do { ciphertext = try sendCipher.encrypt(associatedData: [], plaintext: padded) } catch { throw .nonceExhausted }
        return [UInt8(truncatingIfNeeded: nonce >> 8), UInt8(truncatingIfNeeded: nonce)] + ciphertext
    }

    private func open(_ sealed: [UInt8]) throws(SecureLinkError) -> [UInt8] {
        guard sealed.count >= SyncLimits.sealedNonceLength + SyncLimits.tagLength else { throw .malformedSealedFrame }
        let low = UInt64(sealed[0]) << 8 | UInt64(sealed[1])
        let expected = receiveCipher.nonce
        var nonce = (expected & ~0xFFFF) | low
        if nonce < expected { nonce &+= 0x1_0000 }
        guard nonce < SyncLimits.maximumFramesPerLink else { throw .nonceExhausted }
        var attempt = receiveCipher
        attempt.setNonce(nonce)
        do {
            let plaintext = try attempt.decrypt(associatedData: [], ciphertext: Array(sealed.dropFirst(SyncLimits.sealedNonceLength)))
            receiveCipher = attempt
            return plaintext
        } catch {
            throw .authenticationFailed
        }
    }

    // MARK: Plumbing

    private func fail(_ error: SecureLinkError) async -> SecureLinkError {
        if !closed {
            closed = true
            await transport.close()
        }
        return error
    }

    private func takeFromInbox() -> SyncFrame? {
        guard inboxStart < inbox.count else {
            inbox.removeAll(keepingCapacity: true)
            inboxStart = 0
            return nil
        }
        defer { inboxStart += 1 }
        return inbox[inboxStart]
    }

    private func acquireSendTurn() async {
        if sending {
            await withCheckedContinuation { sendWaiters.append($0) }
        } else {
            sending = true
        }
    }

    private func releaseSendTurn() {
        if sendWaiters.isEmpty {
            sending = false
        } else {
            sendWaiters.removeFirst().resume()
        }
    }
}
