import Crypto
import KithCanonical

/// Noise HandshakeState for `Noise_<pattern>_25519_ChaChaPoly_SHA256` (Noise spec section 5.3).
///
/// Create one per handshake, then call ``writeMessage(payload:)`` and ``readMessage(_:)`` in the
/// pattern's order. When ``isComplete`` is true, ``transportCiphers()`` returns the split ciphers.
/// Ephemeral keys are generated unless injected (for test vectors).
public struct NoiseHandshakeState: Sendable {
    /// The full protocol name, for example `Noise_XX_25519_ChaChaPoly_SHA256`.
    public let protocolName: String
    /// The handshake pattern.
    public let pattern: NoiseHandshakePattern
    /// True for the initiator.
    public let isInitiator: Bool

    private var symmetric: NoiseSymmetricState
    private let localStatic: Curve25519.KeyAgreement.PrivateKey?
    private var localEphemeral: Curve25519.KeyAgreement.PrivateKey?
    private var injectedEphemeral: Curve25519.KeyAgreement.PrivateKey?
    /// The remote static public key, once known (pre-message or received).
    public private(set) var remoteStaticKey: [UInt8]?
    private var remoteEphemeral: [UInt8]?
    private var preSharedKeys: [[UInt8]]
    private var messageIndex = 0

    /// The suffix every supported protocol name ends with.
    public static let cipherSuiteSuffix = "_25519_ChaChaPoly_SHA256"

    /// Initialize(handshake_pattern, initiator, prologue, s, e, rs, re) with pre-shared keys.
    ///
    /// - Parameters:
    ///   - protocolName: `Noise_<pattern>_25519_ChaChaPoly_SHA256`.
    ///   - localStatic: this side's static key, when the pattern sends or pre-declares one.
    ///   - localEphemeral: a fixed ephemeral key (test vectors only); generated when nil.
    ///   - remoteStatic: the peer's static public key, when the pattern pre-declares it.
    ///   - remoteEphemeral: the peer's ephemeral public key, when the pattern pre-declares it.
    ///   - preSharedKeys: 32-byte keys consumed by `psk` tokens, in order.
    public init(
        protocolName: String,
        isInitiator: Bool,
        prologue: [UInt8],
        localStatic: Curve25519.KeyAgreement.PrivateKey? = nil,
        localEphemeral: Curve25519.KeyAgreement.PrivateKey? = nil,
        remoteStatic: [UInt8]? = nil,
        remoteEphemeral: [UInt8]? = nil,
        preSharedKeys: [[UInt8]] = []
    ) throws(NoiseError) {
        guard protocolName.hasPrefix("Noise_"), protocolName.hasSuffix(Self.cipherSuiteSuffix) else {
            throw .unsupportedProtocol(protocolName)
        }
        let patternName = String(protocolName.dropFirst("Noise_".count).dropLast(Self.cipherSuiteSuffix.count))
        pattern = try NoiseHandshakePattern(named: patternName)
        self.protocolName = protocolName
        self.isInitiator = isInitiator
        self.localStatic = localStatic
        self.injectedEphemeral = localEphemeral
        self.remoteStaticKey = remoteStatic
        self.remoteEphemeral = remoteEphemeral
        for key in preSharedKeys where key.count != 32 { throw .invalidKeyLength(key.count) }
        if let remoteStatic, remoteStatic.count != 32 { throw .invalidKeyLength(remoteStatic.count) }
        let pskCount = pattern.messages.reduce(0) { $0 + $1.filter { $0 == .psk }.count }
        guard preSharedKeys.count >= pskCount else { throw .missingKey("\(pskCount) pre-shared keys") }
        self.preSharedKeys = preSharedKeys
        symmetric = NoiseSymmetricState(protocolName: protocolName)
        symmetric.mixHash(prologue)
        try mixPreMessage(pattern.initiatorPreMessage, ownedLocally: isInitiator)
        try mixPreMessage(pattern.responderPreMessage, ownedLocally: !isInitiator)
    }

    /// True once every handshake message has been written or read.
    public var isComplete: Bool { messageIndex >= pattern.messages.count }

    /// True when the next call must be ``writeMessage(payload:)``.
    public var isMyTurn: Bool { !isComplete && (messageIndex % 2 == 0) == isInitiator }

    /// The handshake hash `h` (a channel binding once complete).
    public var handshakeHash: [UInt8] { symmetric.handshakeHash }

    /// WriteMessage(payload): the next handshake message.
    public mutating func writeMessage(payload: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard isMyTurn else { throw .outOfTurn }
        var message: [UInt8] = []
        for token in pattern.messages[messageIndex] {
            switch token {
            case .e:
                let ephemeral = injectedEphemeral ?? Curve25519.KeyAgreement.PrivateKey()
                injectedEphemeral = nil
                localEphemeral = ephemeral
                let publicKey = Array(ephemeral.publicKey.rawRepresentation)
                message += publicKey
                symmetric.mixHash(publicKey)
                if pattern.usesPreSharedKeys { try symmetric.mixKey(publicKey) }
            case .s:
                guard let localStatic else { throw .missingKey("a local static key") }
                message += try symmetric.encryptAndHash(Array(localStatic.publicKey.rawRepresentation))
            case .psk:
                try symmetric.mixKeyAndHash(preSharedKeys.removeFirst())
            default:
                try mixDiffieHellman(token)
            }
        }
        message += try symmetric.encryptAndHash(payload)
        guard message.count <= Int(UInt16.max) else { throw .messageTooLong(message.count) }
        messageIndex += 1
        return message
    }

    /// ReadMessage(message): checks and consumes the next handshake message, returning its payload.
    public mutating func readMessage(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard !isComplete, !isMyTurn else { throw .outOfTurn }
        guard message.count <= Int(UInt16.max) else { throw .messageTooLong(message.count) }
        var offset = 0
        func take(_ count: Int) throws(NoiseError) -> [UInt8] {
            guard message.count - offset >= count else { throw .messageTooShort }
            defer { offset += count }
            return Array(message[offset..<(offset + count)])
        }
        for token in pattern.messages[messageIndex] {
            switch token {
            case .e:
                let publicKey = try take(32)
                remoteEphemeral = publicKey
                symmetric.mixHash(publicKey)
                if pattern.usesPreSharedKeys { try symmetric.mixKey(publicKey) }
            case .s:
                let sealed = try take(symmetric.hasKey ? 48 : 32)
                remoteStaticKey = try symmetric.decryptAndHash(sealed)
            case .psk:
                try symmetric.mixKeyAndHash(preSharedKeys.removeFirst())
            default:
                try mixDiffieHellman(token)
            }
        }
        let payload = try symmetric.decryptAndHash(Array(message[offset...]))
        messageIndex += 1
        return payload
    }

    /// The transport ciphers after the handshake: one to send with, one to receive with.
    public func transportCiphers() throws(NoiseError) -> NoiseTransportCiphers {
        guard isComplete else { throw .handshakeIncomplete }
        let (initiatorToResponder, responderToInitiator) = try symmetric.split()
        return isInitiator
            ? NoiseTransportCiphers(sending: initiatorToResponder, receiving: responderToInitiator)
            : NoiseTransportCiphers(sending: responderToInitiator, receiving: initiatorToResponder)
    }

    private mutating func mixPreMessage(_ tokens: [NoiseHandshakePattern.Token], ownedLocally: Bool) throws(NoiseError) {
        for token in tokens {
            switch token {
            case .s:
                if ownedLocally {
                    guard let localStatic else { throw .missingKey("a local static key") }
                    symmetric.mixHash(Array(localStatic.publicKey.rawRepresentation))
                } else {
                    guard let remoteStaticKey else { throw .missingKey("the remote static key") }
                    symmetric.mixHash(remoteStaticKey)
                }
            case .e:
                let publicKey: [UInt8]
                if ownedLocally {
                    guard let ephemeral = injectedEphemeral else { throw .missingKey("a local ephemeral key") }
                    localEphemeral = ephemeral
                    injectedEphemeral = nil
                    publicKey = Array(ephemeral.publicKey.rawRepresentation)
                } else {
                    guard let remoteEphemeral else { throw .missingKey("the remote ephemeral key") }
                    publicKey = remoteEphemeral
                }
                symmetric.mixHash(publicKey)
                if pattern.usesPreSharedKeys { try symmetric.mixKey(publicKey) }
            default:
                throw .unsupportedProtocol(protocolName)
            }
        }
    }

    private mutating func mixDiffieHellman(_ token: NoiseHandshakePattern.Token) throws(NoiseError) {
        let local: Curve25519.KeyAgreement.PrivateKey?
        let remote: [UInt8]?
        switch token {
        case .ee:
            local = localEphemeral; remote = remoteEphemeral
        case .ss:
            local = localStatic; remote = remoteStaticKey
        case .es:
            (local, remote) = isInitiator ? (localEphemeral, remoteStaticKey) : (localStatic, remoteEphemeral)
        case .se:
            (local, remote) = isInitiator ? (localStatic, remoteEphemeral) : (localEphemeral, remoteStaticKey)
        default:
            throw .unsupportedProtocol(protocolName)
        }
        guard let local else { throw .missingKey("a local key for \(token.rawValue)") }
        guard let remote else { throw .missingKey("a remote key for \(token.rawValue)") }
        try symmetric.mixKey(Self.diffieHellman(local, remote))
    }

    static func diffieHellman(_ privateKey: Curve25519.KeyAgreement.PrivateKey, _ publicKey: [UInt8]) throws(NoiseError) -> [UInt8] {
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
            let secret = try privateKey.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
            // A low-order public key yields all zeros; refuse it (RFC 7748 section 6.1 check).
            guard !ConstantTime.equals(secret, [UInt8](repeating: 0, count: secret.count)) else { throw NoiseError.keyAgreementFailed }
            return secret
        } catch {
            throw .keyAgreementFailed
        }
    }
}
