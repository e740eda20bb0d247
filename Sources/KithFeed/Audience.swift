import KithCanonical
import KithIdentity

/// Who can decrypt a message's `content_enc` (spec 3.2).
///
/// Grammar: `self` | `contacts` | `direct:{feed_id}` | `group:{group_id}` | `otk:{feed_id}` | any
/// other `prefix:rest` (kept verbatim for forward compatibility; such content is stored opaque).
/// `otk:` is an additive prefix (spec 10.1): a reader that does not know it keeps it as an unknown
/// audience, and an `otk:` whose suffix is not a feed id stays unknown here too.
public enum Audience: Sendable, Hashable, CustomStringConvertible {
    /// Only the author (journal key); replicated as a stub only.
    case selfOnly
    /// Every current contact of the author.
    case contacts
    /// One peer, through the Double Ratchet.
    case direct(FeedID)
    /// An MLS group, identified by base64url of its 32-byte id.
    case group(String)
    /// One inner-circle peer: `content_enc` is a NanoTDF to a one-time key of the pool that peer
    /// gave the author (docs/TDF.md).
    case oneTime(FeedID)
    /// An audience prefix this version does not know; stored and relayed, never decrypted.
    case unknown(String)

    /// Parses the envelope's `audience` string.
    public init(_ text: String) throws(FeedError) {
        guard !text.isEmpty, text.utf8.count <= FeedLimits.maxAudienceLength,
              text.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw .invalidAudience(text, reason: "must be 1...\(FeedLimits.maxAudienceLength) printable ASCII characters")
        }
        switch text {
        case "self": self = .selfOnly
        case "contacts": self = .contacts
        default:
            if text.hasPrefix("direct:") {
                do {
                    self = .direct(try FeedID(String(text.dropFirst(7))))
                } catch {
                    throw .invalidAudience(text, reason: "direct: must be followed by a feed id")
                }
            } else if text.hasPrefix("group:") {
                let id = String(text.dropFirst(6))
                guard (try? Base64URL.decode(id, expectedLength: 32)) != nil else {
                    throw .invalidAudience(text, reason: "group: must be followed by base64url of a 32-byte group id")
                }
                self = .group(id)
            } else if text.hasPrefix("otk:"), let peer = try? FeedID(String(text.dropFirst(4))) {
                self = .oneTime(peer)
            } else if let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex {
                self = .unknown(text)
            } else {
                throw .invalidAudience(text, reason: "expected self, contacts, direct:{feed_id}, group:{id} or prefix:value")
            }
        }
    }

    /// The envelope string form.
    public var description: String {
        switch self {
        case .selfOnly: "self"
        case .contacts: "contacts"
        case .direct(let peer): "direct:\(peer.string)"
        case .group(let id): "group:\(id)"
        case .oneTime(let peer): "otk:\(peer.string)"
        case .unknown(let text): text
        }
    }

    /// Whether the message's content may be replicated to peers (self content never is).
    public var isReplicated: Bool { self != .selfOnly }
}
