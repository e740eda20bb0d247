import KithCanonical
import KithIdentity

/// A social feed post (spec 5.1).
public struct Post: Sendable, Hashable {
    /// The text, at most 2,000 Unicode scalars.
    public var body: String
    /// base64url(SHA-256) of up to 4 attachment blobs.
    public var attachments: [String]
    /// The message this replies to.
    public var replyTo: MessageID?
    /// Mentioned feeds.
    public var mentions: [FeedID]

    /// Creates a post; ``validate()`` checks the limits.
    public init(body: String, attachments: [String] = [], replyTo: MessageID? = nil, mentions: [FeedID] = []) {
        self.body = body
        self.attachments = attachments
        self.replyTo = replyTo
        self.mentions = mentions
    }

    init(_ fields: ContentFields) throws(FeedError) {
        body = try fields.text(try fields.requiredString("body"), "body", maxScalars: FeedLimits.maxPostBody)
        var hashes: [String] = []
        for entry in try fields.stringArray("attachments", max: FeedLimits.maxAttachments) {
            hashes.append(try fields.hash(entry, "attachments"))
        }
        attachments = hashes
        replyTo = try fields.optionalString("reply_to").map { (text) throws(FeedError) in try fields.messageID(text, "reply_to") }
        var feeds: [FeedID] = []
        for entry in try fields.stringArray("mentions", max: FeedLimits.maxMentions) {
            feeds.append(try fields.feedID(entry, "mentions"))
        }
        mentions = feeds
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["body"] = .string(body)
        object["attachments"] = .array(attachments.map { .string($0) })
        object["reply_to"] = replyTo.map { .string($0.string) } ?? .null
        object["mentions"] = .array(mentions.map { .string($0.string) })
        return object
    }
}
