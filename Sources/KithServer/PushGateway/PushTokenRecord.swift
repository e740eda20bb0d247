import KithPushDelivery

/// A whitelist token as stored: its SHA-256 digest, never the token.
public struct PushTokenRecord: Sendable, Hashable {
    /// `WhitelistToken.storageDigest`.
    public var digest: [UInt8]
    /// The owning account's id.
    public var owner: String
    /// The device the token was created for.
    public var deviceID: String
    /// That device's kind (names the JSON field: `apns_device`, `gcm_device`, `webpush_device`).
    public var deviceKind: PushTargetKind
    /// A label chosen by the client.
    public var name: String?
    /// Creation time, milliseconds since the epoch.
    public var createdAt: Int64
    /// Expiry, milliseconds since the epoch; a knock at or after it answers 404.
    public var expiresAt: Int64
    /// The random nonce the token was derived from with the owner's API token (``PushTokenDerivation``), so the
    /// owner's token list can carry the token without the token being stored; nil for tokens stored before.
    public var derivationNonce: [UInt8]?

    /// A record with every field.
    public init(
        digest: [UInt8], owner: String, deviceID: String, deviceKind: PushTargetKind, name: String?, createdAt: Int64, expiresAt: Int64,
        derivationNonce: [UInt8]? = nil
    ) {
        self.digest = digest
        self.owner = owner
        self.deviceID = deviceID
        self.deviceKind = deviceKind
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.derivationNonce = derivationNonce
    }
}
