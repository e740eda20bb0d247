import KithIdentity

/// A guardian set this identity made: public facts only (the shares went to the guardians and are not kept).
public struct RecoverySetRecord: Sendable, Equatable {
    /// The set's generation (1 for the first set; each new set is one higher).
    public let generation: Int64
    /// The set id, lowercase hex.
    public let setID: String
    /// How many guardians must release their shares.
    public let threshold: Int
    /// The guardians in share order (share index = position + 1).
    public let guardians: [FeedID]
    /// When the set was made, seconds since 1970.
    public let createdAt: Int64
    /// The identity key (base64url) current when the set was made; nil for sets made before it was recorded. The set
    /// is stale once the keys rotated since.
    public let identityKey: String?
    /// Whether the recovery secret carries the backup recovery key.
    public let carriesBackupKey: Bool
    /// When the set was revoked (`recovery.revoke()`), seconds since 1970; nil while it stands.
    public let revokedAt: Int64?

    /// Bundles the fields.
    public init(generation: Int64, setID: String, threshold: Int, guardians: [FeedID], createdAt: Int64,
                identityKey: String? = nil, carriesBackupKey: Bool = false, revokedAt: Int64? = nil) {
        self.generation = generation
        self.setID = setID
        self.threshold = threshold
        self.guardians = guardians
        self.createdAt = createdAt
        self.identityKey = identityKey
        self.carriesBackupKey = carriesBackupKey
        self.revokedAt = revokedAt
    }
}

/// A recovery share this identity holds as a guardian, without the share itself.
public struct HeldRecoveryShareRecord: Sendable, Equatable {
    /// The owner the share belongs to (the contact who handed it over).
    public let owner: FeedID
    /// The set id, lowercase hex.
    public let setID: String
    /// The set's generation.
    public let generation: Int64
    /// When it was received, milliseconds since 1970.
    public let receivedAt: Int64
}

/// What became of a `recovery_share` handed over by a contact.
public enum RecoveryShareAcceptance: Sendable, Equatable {
    /// Kept (the first share of this owner, or a newer set replacing an older one).
    case kept
    /// Ignored: a share of the same or an older generation than the one already held.
    case stale
}
