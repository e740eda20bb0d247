import KithFeed

/// Decrypts the content of envelopes the local identity may read.
///
/// The store calls it when a message is linked; the audience modules (self, contacts, direct,
/// group) implement it. Returning nil means "not readable here": the envelope is stored opaque.
public protocol ContentDecryptor: Sendable {
    /// The content plaintext (canonical JSON bytes), or nil when this identity cannot read it.
    func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]?
}
