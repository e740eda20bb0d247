/// The secrets derived from one epoch's `epoch_secret` (RFC 9420 §8, table in §8).
public struct EpochSecrets: Sendable, Hashable {
    /// The suite that derived the secrets.
    public let suite: CipherSuite
    /// `joiner_secret` of the epoch.
    public let joinerSecret: [UInt8]
    /// `welcome_secret` (protects the GroupInfo in a Welcome).
    public let welcomeSecret: [UInt8]
    /// `sender_data_secret`.
    public let senderDataSecret: [UInt8]
    /// `encryption_secret` (root of the secret tree).
    public let encryptionSecret: [UInt8]
    /// `exporter_secret`.
    public let exporterSecret: [UInt8]
    /// `epoch_authenticator`.
    public let epochAuthenticator: [UInt8]
    /// `external_secret` (source of the external HPKE key pair).
    public let externalSecret: [UInt8]
    /// `confirmation_key`.
    public let confirmationKey: [UInt8]
    /// `membership_key`.
    public let membershipKey: [UInt8]
    /// `resumption_psk`.
    public let resumptionPSK: [UInt8]
    /// `init_secret` handed to the next epoch.
    public let initSecret: [UInt8]

    /// Runs the epoch half of the key schedule from `joiner_secret`, `psk_secret` and the new GroupContext.
    public init(suite: CipherSuite, joinerSecret: [UInt8], pskSecret: [UInt8], context: GroupContext) throws {
        self.suite = suite
        self.joinerSecret = joinerSecret
        let member = suite.extract(salt: joinerSecret, ikm: pskSecret)
        welcomeSecret = try suite.deriveSecret(secret: member, label: "welcome")
        let epochSecret = try suite.expandWithLabel(secret: member, label: "epoch", context: context.tlsEncoded, length: suite.secretSize)
        senderDataSecret = try suite.deriveSecret(secret: epochSecret, label: "sender data")
        encryptionSecret = try suite.deriveSecret(secret: epochSecret, label: "encryption")
        exporterSecret = try suite.deriveSecret(secret: epochSecret, label: "exporter")
        externalSecret = try suite.deriveSecret(secret: epochSecret, label: "external")
        confirmationKey = try suite.deriveSecret(secret: epochSecret, label: "confirm")
        membershipKey = try suite.deriveSecret(secret: epochSecret, label: "membership")
        resumptionPSK = try suite.deriveSecret(secret: epochSecret, label: "resumption")
        epochAuthenticator = try suite.deriveSecret(secret: epochSecret, label: "authentication")
        initSecret = try suite.deriveSecret(secret: epochSecret, label: "init")
    }

    /// Runs the full key schedule from the previous epoch's `init_secret` and this epoch's `commit_secret`.
    public init(suite: CipherSuite, initSecret previous: [UInt8], commitSecret: [UInt8], pskSecret: [UInt8], context: GroupContext) throws {
        let joiner = try Self.joinerSecret(suite: suite, initSecret: previous, commitSecret: commitSecret, context: context)
        try self.init(suite: suite, joinerSecret: joiner, pskSecret: pskSecret, context: context)
    }

    /// `joiner_secret = ExpandWithLabel(Extract(init_secret, commit_secret), "joiner", GroupContext, Nh)`.
    public static func joinerSecret(suite: CipherSuite, initSecret: [UInt8], commitSecret: [UInt8], context: GroupContext) throws -> [UInt8] {
        let prk = suite.extract(salt: initSecret, ikm: commitSecret)
        return try suite.expandWithLabel(secret: prk, label: "joiner", context: context.tlsEncoded, length: suite.secretSize)
    }

    /// `welcome_secret` from a joiner secret and PSK secret, as a Welcome recipient computes it before knowing the GroupContext.
    public static func welcomeSecret(suite: CipherSuite, joinerSecret: [UInt8], pskSecret: [UInt8]) throws -> [UInt8] {
        try suite.deriveSecret(secret: suite.extract(salt: joinerSecret, ikm: pskSecret), label: "welcome")
    }

    /// The AEAD key and nonce protecting a Welcome's GroupInfo (RFC 9420 §12.4.3.1).
    public static func welcomeKeyAndNonce(suite: CipherSuite, welcomeSecret: [UInt8]) throws -> (key: [UInt8], nonce: [UInt8]) {
        (try suite.expandWithLabel(secret: welcomeSecret, label: "key", context: [], length: suite.aead.keySize),
         try suite.expandWithLabel(secret: welcomeSecret, label: "nonce", context: [], length: suite.aead.nonceSize))
    }

    /// `MLS-Exporter(label, context, length)` (RFC 9420 §8.5).
    public func export(label: String, context: [UInt8], length: Int) throws -> [UInt8] {
        let derived = try suite.deriveSecret(secret: exporterSecret, label: label)
        return try suite.expandWithLabel(secret: derived, label: "exported", context: suite.digest(context), length: length)
    }

    /// The external HPKE key pair `DeriveKeyPair(external_secret)` (RFC 9420 §8.3).
    public func externalKeyPair() throws -> KeyPair { try suite.deriveKeyPair(secret: externalSecret) }

    /// `confirmation_tag = MAC(confirmation_key, confirmed_transcript_hash)` (RFC 9420 §6.1).
    public func confirmationTag(confirmedTranscriptHash: [UInt8]) -> [UInt8] {
        suite.mac(key: confirmationKey, data: confirmedTranscriptHash)
    }
}
