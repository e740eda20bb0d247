import KithFeed
import KithIdentity
import KithStore

/// Decrypts what the local identity may read. Today: its own `self` messages.
/// Contacts, direct and group audiences plug in here as they arrive.
struct AccountDecryptor: ContentDecryptor {
    let identity: Identity

    func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? {
        switch envelope.audience {
        case .selfOnly:
            guard envelope.feedID == identity.feedID else { return nil }
            return try SelfAudienceCipher.open(try envelope.contentBytes(), key: identity.journalKey, sequence: envelope.sequence, feedID: envelope.feedID)
        default:
            return nil
        }
    }
}
