import KithFeed

/// Decrypts the content of envelopes the local identity may read.
///
/// The store calls it when a message is linked; the audience modules (self, contacts, direct,
/// group) implement it. Returning nil means "not readable here": the envelope is stored opaque.
public protocol ContentDecryptor: Sendable {
    /// The content plaintext (canonical JSON bytes), or nil when this identity cannot read it.
    func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]?

    /// Called by the ingest on its calling thread before each batch's transaction, with the batch's envelopes (nil
    /// when it does not know them): a decryptor that needs something from the store reads it here, since
    /// ``decrypt(_:)`` runs inside the transaction, where the store must not be read. The default does nothing.
    func prepare(for envelopes: [Envelope]?)
}

extension ContentDecryptor {
    /// Does nothing: the decryptor holds what it needs.
    public func prepare(for envelopes: [Envelope]?) {}
}
