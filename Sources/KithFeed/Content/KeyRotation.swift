import KithCanonical

/// Announces new public keys for the same feed (spec 5.5).
public struct KeyRotation: Sendable, Hashable {
    /// The allowed `reason` values.
    public static let reasons = ["device_migration", "key_compromise", "scheduled_rotation"]

    /// New Ed25519 key, base64url (32 bytes).
    public var newIdentityKey: String
    /// New X25519 key, base64url (32 bytes).
    public var newDHKey: String
    /// New ML-KEM-768 key, base64url (1,184 bytes).
    public var newPQKey: String
    /// Old identity key's signature over the concatenated raw new keys; nil if the old key was lost.
    public var previousKeySignature: String?
    /// Why the keys rotate.
    public var reason: String?

    /// Creates a rotation announcement.
    public init(newIdentityKey: String, newDHKey: String, newPQKey: String, previousKeySignature: String?, reason: String?) {
        self.newIdentityKey = newIdentityKey
        self.newDHKey = newDHKey
        self.newPQKey = newPQKey
        self.previousKeySignature = previousKeySignature
        self.reason = reason
    }

    init(_ fields: ContentFields) throws(FeedError) {
        newIdentityKey = try fields.requiredString("new_identity_key")
        _ = try fields.bytes(newIdentityKey, "new_identity_key", length: 32)
        newDHKey = try fields.requiredString("new_dh_key")
        _ = try fields.bytes(newDHKey, "new_dh_key", length: 32)
        newPQKey = try fields.requiredString("new_pq_key")
        _ = try fields.bytes(newPQKey, "new_pq_key", length: FeedLimits.pqPublicKeyBytes)
        previousKeySignature = try fields.optionalString("previous_key_sig")
        if let signature = previousKeySignature { _ = try fields.bytes(signature, "previous_key_sig", length: 64) }
        reason = try fields.oneOf(try fields.optionalString("reason"), "reason", Self.reasons)
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["new_identity_key"] = .string(newIdentityKey)
        object["new_dh_key"] = .string(newDHKey)
        object["new_pq_key"] = .string(newPQKey)
        object["previous_key_sig"] = previousKeySignature.map { .string($0) } ?? .null
        if let reason { object["reason"] = .string(reason) }
        return object
    }
}
