import KithFeed
import KithStore

/// The decryptor for a message the account just wrote: it already holds the plaintext, so the
/// store seals it without decrypting what was just encrypted (and can store the author's copy of
/// a direct message, which the author's own keys cannot open).
struct KnownPlaintextDecryptor: ContentDecryptor {
    let messageID: MessageID
    let plaintext: [UInt8]

    func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? {
        envelope.messageID == messageID ? plaintext : nil
    }
}
