/// The confirmed and interim transcript hashes (RFC 9420 §8.2).
public enum TranscriptHashes {
    /// `confirmed_transcript_hash = Hash(interim_before || ConfirmedTranscriptHashInput)`.
    public static func confirmed(suite: CipherSuite, interimBefore: [UInt8], content: AuthenticatedContent) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(interimBefore)
        content.wireFormat.encode(to: &writer)
        content.content.encode(to: &writer)
        writer.writeOpaque(content.auth.signature)
        return suite.digest(writer.bytes)
    }

    /// `interim_transcript_hash = Hash(confirmed || InterimTranscriptHashInput)`.
    public static func interim(suite: CipherSuite, confirmed: [UInt8], confirmationTag: [UInt8]) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeBytes(confirmed)
        writer.writeOpaque(confirmationTag)
        return suite.digest(writer.bytes)
    }
}
