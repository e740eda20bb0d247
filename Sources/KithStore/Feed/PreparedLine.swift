import KithCanonical
import Crypto
import KithFeed
import KithIdentity

/// One input line of an ingest, parsed, with its signature possibly checked ahead of the
/// transaction that links it.
///
/// Checking ahead lets the Ed25519 work run in one stretch (or, for a streamed ingest, while the
/// previous batch commits). The transaction uses a result only where it would verify with the same
/// key, the feed's genesis identity key, which its feed id fixes for good; it verifies in place
/// everywhere else, so every outcome is the same as verifying in place.
struct PreparedLine: Sendable {
    /// The bytes received.
    let bytes: [UInt8]
    /// The parsed entry, or why the bytes are not one.
    let parsed: Result<FeedEntry, FeedError>
    /// The signature checked with the feed's genesis identity key, when that was done ahead.
    var signatureValid: Bool?

    /// Parses each line (size, canonical form, fields); signatures are not checked.
    static func parse(_ lines: ArraySlice<[UInt8]>) -> [PreparedLine] {
        lines.map { bytes in
            PreparedLine(bytes: bytes, parsed: Result { () throws(FeedError) in try FeedEntry.parse(bytes) }, signatureValid: nil)
        }
    }

    /// The same line refused unless it is an entry of `feed`: another feed's line is
    /// `feed_id_mismatch`, a later-version line that names no feed `missing_field` (a line that
    /// does not parse keeps its own reason).
    func restricted(to feed: FeedID) -> PreparedLine {
        guard case .success(let entry) = parsed else { return self }
        guard let named = entry.feedID else {
            return PreparedLine(bytes: bytes, parsed: .failure(.missingField("feed_id")), signatureValid: nil)
        }
        guard named == feed else {
            return PreparedLine(bytes: bytes, parsed: .failure(.feedIDMismatch(expected: feed.string, found: named.string)), signatureValid: nil)
        }
        return self
    }

    /// Checks back to back the signatures that linking will need: signed entries of followed
    /// feeds without key rotations, at or above the feed's next sequence. Lower ones are probably
    /// held already, which the transaction checks first and cheaply.
    ///
    /// - Parameter feed: the state of a followed feed, nil for one that is not followed.
    /// The checks are independent: a large batch spreads them over the cores (`ConcurrentChecks`).
    static func checkSignatures<Failure: Error>(_ lines: inout [PreparedLine], feed: (FeedID) throws(Failure) -> FeedKeyState?) throws(Failure) {
        var checks: [(index: Int, entry: SignedEntry, key: Curve25519.Signing.PublicKey)] = []
        for index in lines.indices {
            guard case .success(let parsed) = lines[index].parsed,
                  let entry = SignedEntry(parsed, bytes: lines[index].bytes),
                  let state = try feed(entry.feedID), !state.hasRotations,
                  entry.sequence >= state.next else { continue }
            checks.append((index, entry, state.key))
        }
        let pending = checks
        let verdicts = ConcurrentChecks.run(count: pending.count) { item in
            (try? pending[item].entry.verifySignature(with: pending[item].key)) != nil
        }
        for (check, valid) in zip(checks, verdicts) { lines[check.index].signatureValid = valid }
    }
}

/// What checking signatures ahead needs to know of a followed feed.
struct FeedKeyState: Sendable {
    /// The feed's genesis identity key (its feed id is the hash of this key).
    let key: Curve25519.Signing.PublicKey
    /// Whether the feed has rotated keys (then each sequence's key is looked up in the transaction).
    let hasRotations: Bool
    /// The sequence after the linked head (0 for an empty feed).
    let next: UInt32
}
