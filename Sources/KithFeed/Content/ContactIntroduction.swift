import KithCanonical
import KithIdentity

/// Introduces one contact to another (spec 5.4); pre-stages keys for a later in-person meeting.
public struct ContactIntroduction: Sendable, Hashable {
    /// The introduced person's feed.
    public var introducedFeedID: FeedID
    /// Their X25519 key, base64url (32 bytes).
    public var introducedDHKey: String
    /// Their ML-KEM-768 key, base64url (1,184 bytes).
    public var introducedPQKey: String
    /// Context, at most 256 Unicode scalars.
    public var note: String?

    /// Creates an introduction.
    public init(introducedFeedID: FeedID, introducedDHKey: String, introducedPQKey: String, note: String?) {
        self.introducedFeedID = introducedFeedID
        self.introducedDHKey = introducedDHKey
        self.introducedPQKey = introducedPQKey
        self.note = note
    }

    init(_ fields: ContentFields) throws(FeedError) {
        introducedFeedID = try fields.feedID(try fields.requiredString("introduced_feed_id"), "introduced_feed_id")
        introducedDHKey = try fields.requiredString("introduced_dh_key")
        _ = try fields.bytes(introducedDHKey, "introduced_dh_key", length: 32)
        introducedPQKey = try fields.requiredString("introduced_pq_key")
        _ = try fields.bytes(introducedPQKey, "introduced_pq_key", length: FeedLimits.pqPublicKeyBytes)
        note = try fields.optionalString("note").map { (text) throws(FeedError) in
            try fields.text(text, "note", maxScalars: FeedLimits.maxIntroductionNote)
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["introduced_feed_id"] = .string(introducedFeedID.string)
        object["introduced_dh_key"] = .string(introducedDHKey)
        object["introduced_pq_key"] = .string(introducedPQKey)
        object["note"] = note.map { .string($0) } ?? .null
        return object
    }
}
