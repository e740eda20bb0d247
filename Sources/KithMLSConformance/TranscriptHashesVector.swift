import KithMLS
/// A `transcript-hashes.json` case (RFC 9420 §8.2, §6.1).
public struct TranscriptHashesVector: ConformanceVector {
    /// `transcript-hashes.json`.
    public static let fileName = "transcript-hashes.json"

    let cipher_suite: UInt16
    let confirmation_key: HexString
    let authenticated_content: HexString
    let interim_transcript_hash_before: HexString
    let confirmed_transcript_hash_after: HexString
    let interim_transcript_hash_after: HexString

    /// Checks the confirmation tag, the confirmed and the interim transcript hash.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let content = try AuthenticatedContent(tlsEncoded: authenticated_content.bytes)
            guard let tag = content.auth.confirmationTag else { throw ConformanceMismatch("authenticated_content is not a commit") }
            let confirmed = TranscriptHashes.confirmed(suite: suite, interimBefore: interim_transcript_hash_before.bytes, content: content)
            try Conformance.expectEqual("confirmed_transcript_hash_after", confirmed, confirmed_transcript_hash_after.bytes)
            try Conformance.expectEqual("confirmation_tag", suite.mac(key: confirmation_key.bytes, data: confirmed), tag)
            try Conformance.expectEqual("interim_transcript_hash_after",
                TranscriptHashes.interim(suite: suite, confirmed: confirmed, confirmationTag: tag), interim_transcript_hash_after.bytes)
        }
    }
}
