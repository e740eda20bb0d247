import KithIdentity
import KithMLS

/// How a Kith member appears in MLS: a BasicCredential whose identity is the 32 raw bytes of its feed id.
public enum GroupCredential {
    /// The credential of `feed`.
    public static func credential(for feed: FeedID) -> Credential {
        .basic(identity: feed.rawBytes)
    }

    /// The feed id a credential names.
    ///
    /// - Throws: ``GroupError/invalidCredential`` for anything but a basic credential of 32 bytes.
    public static func feed(of credential: Credential) throws(GroupError) -> FeedID {
        guard case .basic(let identity) = credential, let feed = try? FeedID(rawBytes: identity) else {
            throw .invalidCredential
        }
        return feed
    }
}
