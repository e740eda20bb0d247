/// The new device's collection of released shares for one request: each release is opened once, replays and a
/// guardian's second share are refused, and the secret is rebuilt when enough shares are in.
public struct RecoveryCollector: Sendable {
    /// The request key the releases are sealed to.
    public let requestKey: RecoveryRequestKey
    /// The shares opened so far, in the order they came.
    public private(set) var shares: [RecoveryShare] = []
    private var seenEncapsulatedKeys: Set<[UInt8]> = []

    /// Starts an empty collection for `requestKey`.
    public init(requestKey: RecoveryRequestKey) { self.requestKey = requestKey }

    /// Opens `release` and keeps its share.
    ///
    /// - Throws: `RecoveryError.releaseReplayed` for a release already handed in, `.duplicateShare` for a second
    ///   release of the same share, `.sharesFromDifferentSets` when it belongs to another set than the shares so
    ///   far, or what `RecoveryRequestKey.open(_:)` throws.
    /// - Returns: the share added.
    @discardableResult
    public mutating func add(_ release: RecoveryRelease) throws(RecoveryError) -> RecoveryShare {
        guard !seenEncapsulatedKeys.contains(release.encapsulatedKey) else { throw .releaseReplayed }
        let share = try requestKey.open(release)
        if let first = shares.first, share.setID != first.setID || share.generation != first.generation {
            throw .sharesFromDifferentSets(field: share.setID != first.setID ? "set id" : "generation")
        }
        if shares.contains(where: { $0.index == share.index }) { throw .duplicateShare(index: share.index) }
        seenEncapsulatedKeys.insert(release.encapsulatedKey)
        shares.append(share)
        return share
    }

    /// How many more shares are needed (0 when the secret can be rebuilt; the threshold is known from the first).
    public var missing: Int {
        guard let first = shares.first else { return RecoveryLimits.minThreshold }
        return max(0, first.threshold - shares.count)
    }

    /// Rebuilds the secret from the shares collected.
    /// - Throws: what `RecoveryShareSet.combine(_:ownerFeedID:)` throws.
    public func combine() throws(RecoveryError) -> [UInt8] {
        try RecoveryShareSet.combine(shares, ownerFeedID: requestKey.request.ownerFeedID)
    }
}
