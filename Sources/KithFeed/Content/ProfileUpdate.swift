import KithCanonical

/// A display name or avatar change (spec 5.3); the latest one in a feed wins.
public struct ProfileUpdate: Sendable, Hashable {
    /// At most 64 Unicode scalars.
    public var displayName: String?
    /// base64url(SHA-256) of the avatar blob.
    public var avatarHash: String?

    /// Creates a profile update.
    public init(displayName: String?, avatarHash: String? = nil) {
        self.displayName = displayName
        self.avatarHash = avatarHash
    }

    init(_ fields: ContentFields) throws(FeedError) {
        displayName = try fields.optionalString("display_name").map { (name) throws(FeedError) in
            try fields.text(name, "display_name", maxScalars: FeedLimits.maxDisplayName)
        }
        avatarHash = try fields.optionalString("avatar_hash").map { (hash) throws(FeedError) in try fields.hash(hash, "avatar_hash") }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["display_name"] = displayName.map { .string($0) } ?? .null
        object["avatar_hash"] = avatarHash.map { .string($0) } ?? .null
        return object
    }
}
