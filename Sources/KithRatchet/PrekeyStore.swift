import Crypto

/// How full a contact's one-time prekey pool is.
public struct PrekeyPoolStatus: Sendable, Equatable {
    /// Unused prekeys left.
    public let remaining: Int
    /// Size of the most recently issued batch.
    public let lastBatchSize: Int

    /// Creates a status value.
    public init(remaining: Int, lastBatchSize: Int) {
        self.remaining = remaining
        self.lastBatchSize = lastBatchSize
    }

    /// True when fewer than ``RatchetConstants/lowWaterPercent`` percent of the last batch is left:
    /// time to hand the contact a fresh batch (in person or over the session).
    public var isBelowLowWater: Bool {
        remaining * 100 < lastBatchSize * RatchetConstants.lowWaterPercent
    }
}

/// The responder's private one-time prekeys, one pool per contact, with consume-once semantics.
public protocol PrekeyStore: Sendable {
    /// Generates `count` fresh one-time prekeys for `peer` and returns their public batch.
    ///
    /// - Throws: ``RatchetError/prekeyPoolFull(limit:)`` when the pool would exceed
    ///   ``RatchetConstants/maxOneTimePrekeys``.
    func generateOneTimePrekeys(count: Int, forPeer peer: String) throws(RatchetError) -> OneTimePrekeyBatch

    /// Looks up a one-time prekey without consuming it (used while a prekey message is verified).
    func oneTimePrekey(id: UInt32, forPeer peer: String) -> Curve25519.KeyAgreement.PrivateKey?

    /// Returns the private key and deletes it, so it can never be used again.
    ///
    /// - Throws: ``RatchetError/unknownOneTimePrekey(id:)`` when it does not exist or was used.
    func consumeOneTimePrekey(id: UInt32, forPeer peer: String) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey

    /// The pool's fill level for `peer`.
    func status(forPeer peer: String) -> PrekeyPoolStatus
}
