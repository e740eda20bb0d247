import KithCanonical

/// An owner's recovery secret split for one set of guardians: `shareCount` shares of which any `threshold` rebuild
/// the secret and fewer reveal nothing about it.
///
/// Shamir's scheme over GF(256) (see docs/CONTINUITY.md, "Recovery through contacts"): information-theoretically
/// hiding below the threshold, byte-wise so any secret length works, and small enough to check against an
/// independent implementation. A new set (guardians replaced, keys rotated) gets a fresh random set id and a higher
/// generation; its shares never combine with an older set's.
public struct RecoveryShareSet: Sendable {
    /// The set's random id (16 bytes).
    public let setID: [UInt8]
    /// The owner's set counter (higher is newer).
    public let generation: UInt32
    /// How many shares rebuild the secret.
    public let threshold: Int
    /// The raw 32 bytes of the owner's feed id.
    public let ownerFeedID: [UInt8]
    /// One share per guardian, indexes 1…n in order.
    public let shares: [RecoveryShare]

    /// Splits `secret` into `shareCount` shares with the given threshold, drawing the set id and coefficients from
    /// the system's secure generator.
    ///
    /// - Throws: `RecoveryError` when the threshold, count, secret size or feed id is out of bounds.
    public static func split(secret: [UInt8], ownerFeedID: [UInt8], threshold: Int, shareCount: Int,
                             generation: UInt32) throws(RecoveryError) -> RecoveryShareSet {
        var randomness = SystemRecoveryRandomness()
        return try split(secret: secret, ownerFeedID: ownerFeedID, threshold: threshold, shareCount: shareCount,
                         generation: generation, randomness: &randomness)
    }

    /// The split with its randomness handed in (the vectors' seam): the set id is drawn first, then
    /// `(secret.count + 32) * (threshold - 1)` coefficient bytes.
    static func split(secret: [UInt8], ownerFeedID: [UInt8], threshold: Int, shareCount: Int, generation: UInt32,
                      randomness: inout some RecoveryRandomness) throws(RecoveryError) -> RecoveryShareSet {
        guard (RecoveryLimits.minThreshold...RecoveryLimits.maxShares).contains(threshold) else {
            throw .thresholdOutOfRange(threshold)
        }
        guard (threshold...RecoveryLimits.maxShares).contains(shareCount) else {
            throw .shareCountOutOfRange(threshold: threshold, count: shareCount)
        }
        guard (1...RecoveryLimits.maxSecretBytes).contains(secret.count) else { throw .secretSizeOutOfRange(secret.count) }
        guard ownerFeedID.count == RecoveryLimits.feedIDBytes else { throw .invalidFeedID(byteCount: ownerFeedID.count) }
        let setID = randomness.bytes(RecoveryLimits.setIDBytes)
        let digest = RecoveryDigest.compute(secret: secret, setID: setID, generation: generation, threshold: threshold,
                                            shareCount: shareCount, ownerFeedID: ownerFeedID)
        var value = secret + digest
        var coefficients = randomness.bytes(value.count * (threshold - 1))
        let values = ShamirSharing.split(value, threshold: threshold, shareCount: shareCount, coefficients: coefficients)
        for index in value.indices { value[index] = 0 }
        for index in coefficients.indices { coefficients[index] = 0 }
        let shares = values.enumerated().map { offset, shareValue in
            RecoveryShare(setID: setID, generation: generation, threshold: threshold, shareCount: shareCount,
                          index: offset + 1, ownerFeedID: ownerFeedID, value: shareValue)
        }
        return RecoveryShareSet(setID: setID, generation: generation, threshold: threshold, ownerFeedID: ownerFeedID,
                                shares: shares)
    }

    /// Rebuilds the secret from shares of one set.
    ///
    /// Every share must carry the same set id, generation, threshold, share count, owner and value length; indexes
    /// must be distinct; at least `threshold` shares are needed; the rebuilt digest must match.
    ///
    /// - Parameter ownerFeedID: when given, the owner the shares must name (the feed being recovered).
    /// - Throws: `RecoveryError.notEnoughShares`, `.duplicateShare`, `.sharesFromDifferentSets`, `.ownerMismatch`
    ///   or `.integrityCheckFailed`.
    public static func combine(_ shares: [RecoveryShare], ownerFeedID: [UInt8]? = nil) throws(RecoveryError) -> [UInt8] {
        guard let first = shares.first else { throw .notEnoughShares(have: 0, need: RecoveryLimits.minThreshold) }
        if let ownerFeedID, !ConstantTime.equals(ownerFeedID, first.ownerFeedID) { throw .ownerMismatch }
        var seen = Set<Int>()
        for share in shares {
            if share.setID != first.setID { throw .sharesFromDifferentSets(field: "set id") }
            if share.generation != first.generation { throw .sharesFromDifferentSets(field: "generation") }
            if share.threshold != first.threshold { throw .sharesFromDifferentSets(field: "threshold") }
            if share.shareCount != first.shareCount { throw .sharesFromDifferentSets(field: "share count") }
            if share.ownerFeedID != first.ownerFeedID { throw .sharesFromDifferentSets(field: "owner") }
            if share.value.count != first.value.count { throw .sharesFromDifferentSets(field: "length") }
            guard seen.insert(share.index).inserted else { throw .duplicateShare(index: share.index) }
        }
        guard shares.count >= first.threshold else { throw .notEnoughShares(have: shares.count, need: first.threshold) }
        var value = ShamirSharing.combine(shares.map { (x: UInt8($0.index), value: $0.value) })
        defer { for index in value.indices { value[index] = 0 } }
        let secret = Array(value.prefix(first.secretByteCount))
        let digest = value.suffix(RecoveryLimits.digestBytes)
        let expected = RecoveryDigest.compute(secret: secret, setID: first.setID, generation: first.generation,
                                              threshold: first.threshold, shareCount: first.shareCount,
                                              ownerFeedID: first.ownerFeedID)
        guard ConstantTime.equals(Array(digest), expected) else { throw .integrityCheckFailed }
        return secret
    }
}
