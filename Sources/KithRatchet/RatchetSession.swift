import Crypto
import KithCanonical
import KithIdentity

/// One Double Ratchet session with one contact: a value type the caller persists after every
/// successful operation (see ``RatchetSessionCodec``).
///
/// Every operation is transactional: it returns the new state and never changes `self`, so a
/// failed decryption leaves the stored state exactly as it was.
public struct RatchetSession: Sendable, Equatable {
    /// Which side of the X3DH this session was created on.
    public enum Role: UInt8, Sendable {
        /// Created by ``RatchetSession/initiate(local:bundle:configuration:entropy:)``.
        case initiator = 1
        /// Created by ``RatchetSession/respond(local:peer:prekeys:wire:context:configuration:now:entropy:)``.
        case responder = 2
    }

    /// The local feed_id.
    public internal(set) var localFeedID: String
    /// The contact's feed_id.
    public internal(set) var peerFeedID: String
    /// The side this session was created on.
    public internal(set) var role: Role
    /// Tunables persisted with the session.
    public internal(set) var configuration: RatchetConfiguration
    /// The initiator's X3DH ephemeral public key: identifies the session in prekey messages.
    public internal(set) var baseKey: [UInt8]
    /// The contact's ML-KEM-768 public key, the target of every ratchet-step encapsulation.
    public internal(set) var peerPQKey: [UInt8]

    var rootKey: [UInt8]
    var sendingRatchetPrivateKey: [UInt8]
    /// The current sending ratchet public key.
    public internal(set) var sendingRatchetPublicKey: [UInt8]
    var receivingRatchetPublicKey: [UInt8]?
    var sendingChainKey: [UInt8]?
    var receivingChainKey: [UInt8]?
    /// Messages sent on the current sending chain.
    public internal(set) var sendingMessageNumber: UInt32
    /// Messages received on the current receiving chain.
    public internal(set) var receivingMessageNumber: UInt32
    /// Length of the previous sending chain.
    public internal(set) var previousSendingChainLength: UInt32
    var sendingPQCiphertext: [UInt8]?
    var pendingPrelude: PrekeyPrelude?
    /// The most recent former receiving ratchet keys (at most ``RatchetConstants/maxRetiredReceivingKeys``):
    /// a message on one of them can only be opened with a stored skipped key.
    var retiredReceivingRatchetKeys: [[UInt8]]
    /// Stored keys of skipped messages.
    public internal(set) var skippedKeys: SkippedMessageKeys

    /// True for an initiator session whose peer has not replied yet: its messages still carry the
    /// X3DH prelude (prekey messages).
    public var isAwaitingReply: Bool { role == .initiator && pendingPrelude != nil }

    /// True when ``encrypt(_:context:entropy:)`` can be called.
    public var canSend: Bool { sendingChainKey != nil || owesSendingStep }

    /// True after a DH ratchet step on receiving and before the next message is sent: the sending
    /// chain is derived by the next ``encrypt(_:context:entropy:)``, with a fresh ML-KEM
    /// encapsulation to ``peerPQKey`` as it is then (the contact's current key after a rotation,
    /// not the key they had when their message arrived).
    var owesSendingStep: Bool { sendingChainKey == nil && receivingChainKey != nil }

    // MARK: Establishment

    /// Starts a session as initiator (Alice). The first ``encrypt(_:context:entropy:)`` produces a prekey message.
    public static func initiate(
        local: LocalIdentityKeys, bundle: PrekeyBundle,
        configuration: RatchetConfiguration = RatchetConfiguration(),
        entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> RatchetSession {
        let handshake = try HybridX3DH.initiate(local: local, bundle: bundle, entropy: entropy)
        let ratchetKey = try entropy.newX25519PrivateKey()
        let signedPrekey = try X25519Agreement.publicKey(bundle.signedPrekey)
        let dhOutput = try X25519Agreement.sharedSecret(ratchetKey, signedPrekey)
        let (rootKey, chainKey) = RatchetKDF.rootStep(rootKey: handshake.masterSecret, dhOutput: dhOutput, pqSharedSecret: nil)
        return RatchetSession(
            localFeedID: local.feedID, peerFeedID: bundle.peer.feedID, role: .initiator,
            configuration: configuration, baseKey: handshake.prelude.initiatorEphemeral,
            peerPQKey: bundle.peer.pqKey, rootKey: rootKey,
            sendingRatchetPrivateKey: Array(ratchetKey.rawRepresentation),
            sendingRatchetPublicKey: Array(ratchetKey.publicKey.rawRepresentation),
            receivingRatchetPublicKey: bundle.signedPrekey, sendingChainKey: chainKey, receivingChainKey: nil,
            sendingMessageNumber: 0, receivingMessageNumber: 0, previousSendingChainLength: 0,
            sendingPQCiphertext: nil, pendingPrelude: handshake.prelude, retiredReceivingRatchetKeys: [],
            skippedKeys: SkippedMessageKeys()
        )
    }

    /// Completes a session as responder (Bob) from a prekey message and decrypts it.
    ///
    /// The one-time prekey named by the message is looked up first and consumed only after the
    /// message authenticated, so a forged prekey message cannot burn prekeys.
    ///
    /// - Returns: the new session (persist it) and the plaintext.
    public static func respond(
        local: LocalIdentityKeys, peer: PeerIdentity, prekeys: some PrekeyStore,
        wire: [UInt8], context: DirectMessageContext,
        configuration: RatchetConfiguration = RatchetConfiguration(),
        now: UInt64, entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> (session: RatchetSession, plaintext: [UInt8]) {
        let (parsed, headerBytes) = try DirectMessageWire.decode(wire)
        guard let prelude = parsed.prelude else { throw .malformed("not a prekey message (type 0x02)") }
        var oneTimePrekey: Curve25519.KeyAgreement.PrivateKey?
        if let id = prelude.oneTimePrekeyID {
            guard let key = try prekeys.oneTimePrekey(id: id, forPeer: peer.feed) else { throw .unknownOneTimePrekey(id: id) }
            oneTimePrekey = key
        }
        let master = try HybridX3DH.respond(local: local, peer: peer, prelude: prelude, oneTimePrekey: oneTimePrekey)
        var session = RatchetSession(
            localFeedID: local.feedID, peerFeedID: peer.feedID, role: .responder,
            configuration: configuration, baseKey: prelude.initiatorEphemeral, peerPQKey: peer.pqKey,
            rootKey: master, sendingRatchetPrivateKey: Array(local.dhKey.rawRepresentation),
            sendingRatchetPublicKey: Array(local.dhKey.publicKey.rawRepresentation),
            receivingRatchetPublicKey: nil, sendingChainKey: nil, receivingChainKey: nil,
            sendingMessageNumber: 0, receivingMessageNumber: 0, previousSendingChainLength: 0,
            sendingPQCiphertext: nil, pendingPrelude: nil, retiredReceivingRatchetKeys: [],
            skippedKeys: SkippedMessageKeys()
        )
        // The initial chain is covered by the X3DH pq_ss (in the master secret): no ratchet ciphertext.
        // The sending half of the step waits for the first reply (see `owesSendingStep`).
        try session.receivingRatchetStep(theirRatchetKey: parsed.header.dhPublicKey, receivedPQSecret: nil, entropy: entropy)
        let plaintext = try session.decryptOnCurrentChain(
            parsed, associatedData: context.associatedData(headerBytes: headerBytes), nonce: context.nonce, now: now
        )
        if let id = prelude.oneTimePrekeyID {
            _ = try prekeys.consumeOneTimePrekey(id: id, forPeer: peer.feed)
        }
        return (session, plaintext)
    }

    /// True when this session should be replaced by the session of an incoming prekey message
    /// during simultaneous initiation: both sides initiated, and the session initiated by the
    /// lower feed_id (ASCII byte order) wins. The winner keeps its own session and reads the
    /// loser's prekey messages with a throw-away ``respond(local:peer:prekeys:wire:context:configuration:now:entropy:)``.
    public var yieldsToIncomingInitiation: Bool {
        isAwaitingReply && FeedID.precedes(peerFeedID, localFeedID)
    }

    // MARK: Messages

    /// Encrypts `plaintext` for the envelope described by `context`.
    ///
    /// The first message after a DH ratchet step on receiving derives the new sending chain here,
    /// encapsulating to the contact's ML-KEM key as it is now (``peerPQKey``); `entropy` supplies
    /// that encapsulation.
    ///
    /// - Returns: the `content_enc` bytes and the new session state (persist it before sending).
    public func encrypt(
        _ plaintext: [UInt8], context: DirectMessageContext, entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> (wire: [UInt8], session: RatchetSession) {
        guard plaintext.count <= RatchetConstants.maxPlaintextSize else { throw .plaintextTooLarge(plaintext.count) }
        var next = self
        if next.owesSendingStep { try next.sendingRatchetStep(entropy: entropy) }
        guard let chainKey = next.sendingChainKey else { throw .noSendingChain }
        let sendingMessageNumber = next.sendingMessageNumber
        guard sendingMessageNumber < UInt32.max else { throw .chainExhausted }
        let (messageKey, nextChainKey) = RatchetKDF.chainStep(chainKey: chainKey)
        let carryAll = configuration.pqCarryPolicy == .everyMessage
        let firstOfChain = sendingMessageNumber == 0
        let header = RatchetHeader(
            dhPublicKey: next.sendingRatchetPublicKey, messageNumber: sendingMessageNumber,
            previousChainLength: next.previousSendingChainLength,
            pqCiphertext: (carryAll || firstOfChain) ? next.sendingPQCiphertext : nil
        )
        let prelude = (carryAll || firstOfChain) ? next.pendingPrelude : nil
        let headerBytes = DirectMessageWire(prelude: prelude, header: header, ciphertext: []).headerBytes
        let sealed: ChaChaPoly.SealedBox
        do {
            sealed = try ChaChaPoly.seal(
                plaintext, using: SymmetricKey(data: messageKey),
                nonce: ChaChaPoly.Nonce(data: context.nonce),
                authenticating: context.associatedData(headerBytes: headerBytes)
            )
        } catch {
            throw .authenticationFailed
        }
        var wire = headerBytes
        wire.reserveCapacity(headerBytes.count + plaintext.count + RatchetConstants.tagSize)
        wire.append(contentsOf: sealed.ciphertext)
        wire.append(contentsOf: sealed.tag)
        next.sendingChainKey = nextChainKey
        next.sendingMessageNumber += 1
        if !carryAll { next.sendingPQCiphertext = nil }   // sent once; no need to keep 1,088 bytes
        return (wire, next)
    }

    /// Decrypts `content_enc` bytes of the envelope described by `context`.
    ///
    /// `local` supplies the ML-KEM private key that opens the ciphertext starting each new
    /// receiving chain; `now` (Unix seconds) dates skipped keys and expires old ones.
    ///
    /// - Returns: the plaintext and the new state; on any error `self` is unchanged and must be kept.
    public func decrypt(
        _ wire: [UInt8], context: DirectMessageContext, local: LocalIdentityKeys, now: UInt64,
        entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> (plaintext: [UInt8], session: RatchetSession) {
        let (parsed, headerBytes) = try DirectMessageWire.decode(wire)
        if let prelude = parsed.prelude {
            guard role == .responder, ConstantTime.equals(prelude.initiatorEphemeral, baseKey) else {
                throw .prekeyMessageForOtherSession
            }
        }
        var state = self
        state.skippedKeys.purge(now: now, lifetime: configuration.skippedKeyLifetime)
        let header = parsed.header
        let associatedData = context.associatedData(headerBytes: headerBytes)
        let nonce = context.nonce
        if let messageKey = state.skippedKeys.take(ratchetPublicKey: header.dhPublicKey, messageNumber: header.messageNumber) {
            let plaintext = try Self.open(parsed.ciphertext, key: messageKey, nonce: nonce, associatedData: associatedData)
            state.pendingPrelude = nil
            return (plaintext, state)
        }
        let isCurrentChain = state.receivingRatchetPublicKey.map { ConstantTime.equals($0, header.dhPublicKey) } ?? false
        if !isCurrentChain {
            if state.retiredReceivingRatchetKeys.contains(where: { ConstantTime.equals($0, header.dhPublicKey) }) {
                throw .duplicateOrExpiredMessage
            }
            guard let ciphertext = header.pqCiphertext else { throw .missingPQCiphertext }
            try state.skipMessageKeys(until: header.previousChainLength, now: now)
            let pqSecret = try HybridX3DH.decapsulate(ciphertext, with: local.pqKey)
            try state.receivingRatchetStep(theirRatchetKey: header.dhPublicKey, receivedPQSecret: pqSecret, entropy: entropy)
        }
        let plaintext = try state.decryptOnCurrentChain(parsed, associatedData: associatedData, nonce: nonce, now: now)
        return (plaintext, state)
    }

    // MARK: Internals

    /// Skips to the header's message number on the current receiving chain and opens the message.
    private mutating func decryptOnCurrentChain(
        _ parsed: DirectMessageWire, associatedData: [UInt8], nonce: [UInt8], now: UInt64
    ) throws(RatchetError) -> [UInt8] {
        let number = parsed.header.messageNumber
        guard number >= receivingMessageNumber else { throw .duplicateOrExpiredMessage }
        try skipMessageKeys(until: number, now: now)
        guard let chainKey = receivingChainKey else { throw .duplicateOrExpiredMessage }
        let (messageKey, nextChainKey) = RatchetKDF.chainStep(chainKey: chainKey)
        let plaintext = try Self.open(parsed.ciphertext, key: messageKey, nonce: nonce, associatedData: associatedData)
        receivingChainKey = nextChainKey
        receivingMessageNumber = number &+ 1
        pendingPrelude = nil
        return plaintext
    }

    /// Derives and stores the keys of messages `receivingMessageNumber ..< until` of the current chain.
    private mutating func skipMessageKeys(until: UInt32, now: UInt64) throws(RatchetError) {
        guard var chainKey = receivingChainKey, let ratchetKey = receivingRatchetPublicKey else { return }
        guard until > receivingMessageNumber else { return }
        let count = until - receivingMessageNumber
        guard count <= RatchetConstants.maxSkipPerChain else {
            throw .tooManySkippedMessages(requested: count, limit: RatchetConstants.maxSkipPerChain)
        }
        while receivingMessageNumber < until {
            let (messageKey, next) = RatchetKDF.chainStep(chainKey: chainKey)
            skippedKeys.insert(ratchetPublicKey: ratchetKey, messageNumber: receivingMessageNumber, messageKey: messageKey, now: now)
            chainKey = next
            receivingMessageNumber += 1
        }
        receivingChainKey = chainKey
    }

    /// The receiving half of the DH (+ PQ) ratchet step on a new ratchet key of the peer: derives
    /// the receiving chain with the peer's ML-KEM secret and draws the next sending ratchet key
    /// pair (so the previous private key is gone at once). The sending chain is derived by
    /// ``sendingRatchetStep(entropy:)`` when the next message is sent: its encapsulation then
    /// targets the contact's key at that time, which a key rotation may have changed meanwhile.
    private mutating func receivingRatchetStep(
        theirRatchetKey: [UInt8], receivedPQSecret: [UInt8]?, entropy: some RatchetEntropySource
    ) throws(RatchetError) {
        let theirKey = try X25519Agreement.publicKey(theirRatchetKey)
        let ourKey = try X25519Agreement.privateKey(sendingRatchetPrivateKey)
        let receiving = RatchetKDF.rootStep(
            rootKey: rootKey, dhOutput: try X25519Agreement.sharedSecret(ourKey, theirKey), pqSharedSecret: receivedPQSecret
        )
        let newKey = try entropy.newX25519PrivateKey()
        if let retired = receivingRatchetPublicKey {
            retiredReceivingRatchetKeys.append(retired)
            if retiredReceivingRatchetKeys.count > RatchetConstants.maxRetiredReceivingKeys {
                retiredReceivingRatchetKeys.removeFirst()
            }
        }
        // Only a chain that existed has a length to announce (PN); a step that follows another
        // receiving step without a send in between keeps the announced length.
        if sendingChainKey != nil {
            previousSendingChainLength = sendingMessageNumber
            sendingMessageNumber = 0
        }
        receivingMessageNumber = 0
        receivingRatchetPublicKey = theirRatchetKey
        receivingChainKey = receiving.chainKey
        rootKey = receiving.rootKey
        sendingChainKey = nil
        sendingPQCiphertext = nil
        sendingRatchetPrivateKey = Array(newKey.rawRepresentation)
        sendingRatchetPublicKey = Array(newKey.publicKey.rawRepresentation)
    }

    /// The sending half of the DH (+ PQ) ratchet step, done by the first message after a
    /// receiving step: a fresh ML-KEM encapsulation to ``peerPQKey`` (the contact's current key)
    /// and the new sending chain from the drawn ratchet key and the peer's ratchet key.
    private mutating func sendingRatchetStep(entropy: some RatchetEntropySource) throws(RatchetError) {
        guard let theirRatchetKey = receivingRatchetPublicKey else { throw .noSendingChain }
        let theirKey = try X25519Agreement.publicKey(theirRatchetKey)
        let ourKey = try X25519Agreement.privateKey(sendingRatchetPrivateKey)
        let (ciphertext, pqSecret) = try entropy.encapsulate(to: peerPQKey)
        let sending = RatchetKDF.rootStep(
            rootKey: rootKey, dhOutput: try X25519Agreement.sharedSecret(ourKey, theirKey), pqSharedSecret: pqSecret
        )
        rootKey = sending.rootKey
        sendingChainKey = sending.chainKey
        sendingMessageNumber = 0
        sendingPQCiphertext = ciphertext
    }

    private static func open(_ ciphertext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws(RatchetError) -> [UInt8] {
        do {
            let split = ciphertext.count - RatchetConstants.tagSize
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: ciphertext[0..<split], tag: ciphertext[split...]
            )
            return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: key), authenticating: associatedData))
        } catch {
            throw .authenticationFailed
        }
    }
}
