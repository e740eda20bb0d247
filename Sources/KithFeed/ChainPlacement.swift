/// Where a signed entry falls against what a reader holds of its feed: the structural half of the
/// chain rules (docs/FEED-FORMAT.md section 7), decided by ``ChainRules/place(sequence:previous:id:isEnvelope:head:held:)``
/// for `kith feed verify` and for ingest alike. Each maps the verdict to its own action: ingest
/// holds an entry that is ahead and records fork evidence; an export's verifier, which reads a
/// whole chain in order, rejects the same cases as a gap or a broken link.
public enum ChainPlacement: Sendable, Equatable {
    /// The next position, and `previous` names the head: the entry extends the chain.
    case link
    /// The same entry already holds its position.
    case duplicate
    /// The author's full self envelope for a position held as its signed stub (same message id).
    case upgradeSelfStub
    /// Another entry holds this position (`same_sequence` fork evidence).
    case conflictsWithHeld(kept: MessageID)
    /// The next position, but `previous` does not name the head (`previous_mismatch` fork evidence).
    case brokenLink(head: MessageID)
    /// Beyond the next position: a gap lies before it.
    case ahead(next: UInt32)
    /// Below the head, at a position this reader does not hold (a verifier keeps only the head).
    case behind(next: UInt32)
}

extension ChainRules {
    /// Places a signed entry (an envelope or a self stub) against the reader's view of its feed.
    ///
    /// - Parameters:
    ///   - head: the last linked position and its message id; nil for an empty feed.
    ///   - held: what holds `sequence` when it is below the next position (its id, and whether it
    ///     is a self stub), if the reader knows; nil when it does not.
    public static func place(
        sequence: UInt32, previous: MessageID?, id: MessageID, isEnvelope: Bool,
        head: (sequence: UInt32, messageID: MessageID)?, held: (id: MessageID, isSelfStub: Bool)?
    ) -> ChainPlacement {
        let next: UInt32 = head.map { $0.sequence &+ 1 } ?? 0
        if sequence < next {
            guard let held else { return .behind(next: next) }
            if held.id == id { return held.isSelfStub && isEnvelope ? .upgradeSelfStub : .duplicate }
            return .conflictsWithHeld(kept: held.id)
        }
        if sequence > next { return .ahead(next: next) }
        if let head, previous != head.messageID { return .brokenLink(head: head.messageID) }
        return .link
    }
}
