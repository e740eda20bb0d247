import KithCanonical

/// Where a joiner finds a group's ratchet tree when it is too large to travel in the Welcome (Kith extension type
/// `mls_group_tree`, additive per spec 10.1; docs/GROUPS.md, "Size"): an encrypted blob (section 11) that syncs like
/// an attachment, and the key that opens it.
///
/// ```json
/// {"blob":"<base64url SHA-256 of the blob>","group_id":"<base64url, 32 bytes>","key":"<base64url, 32 bytes>",
///  "type":"mls_group_tree"}
/// ```
///
/// The committer sends it to each joiner over the direct session just before the Welcome. The tree itself is checked
/// by MLS against the tree hash of the Welcome's signed GroupInfo, so a wrong or stale tree is refused, never used.
/// Valid only in a `direct:` audience.
public struct GroupTreeOffer: Sendable, Hashable {
    /// base64url of the 32-byte group id.
    public var groupID: String
    /// base64url(SHA-256(blob)): the blob's content hash.
    public var blob: String
    /// base64url of the blob's 32-byte key.
    public var key: String

    /// Creates the content.
    public init(groupID: String, blob: String, key: String) {
        self.groupID = groupID
        self.blob = blob
        self.key = key
    }

    init(_ fields: ContentFields) throws(FeedError) {
        groupID = try fields.requiredString("group_id")
        _ = try fields.bytes(groupID, "group_id", length: 32)
        blob = try fields.requiredString("blob")
        _ = try fields.bytes(blob, "blob", length: 32)
        key = try fields.requiredString("key")
        _ = try fields.bytes(key, "key", length: 32)
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["group_id"] = .string(groupID)
        object["blob"] = .string(blob)
        object["key"] = .string(key)
        return object
    }
}
