/// Committing arbitrary proposals by value (RFC 9420 §12.4).
extension GroupState {
    /// Creates a commit carrying `proposals` by value, for instance a GroupContextExtensions proposal, together with the
    /// pending proposals of the epoch by reference when `includePending` is true (this member's own Updates are left out).
    ///
    /// The proposals are checked as a receiver checks them (RFC 9420 §12.2, §12.4.2): an Update by value (only another
    /// member's Update can be committed, and only by reference), an ExternalInit, a ReInit next to other proposals, or an
    /// invalid Add, Remove or PreSharedKey throws ``MLSGroupError`` and leaves `self` unchanged. An UpdatePath is added
    /// when `includePath` is true or the proposals require one. `self` only advances its message-key ratchet; the new
    /// epoch is in ``PendingCommit/newState``.
    public mutating func commit(proposals: [Proposal], includePending: Bool = true, includePath: Bool = true,
                                wireFormat: WireFormat = .publicMessage, authenticatedData: [UInt8] = [],
                                ratchetTreeInWelcome: Bool = true) throws -> PendingCommit {
        var work = self
        let pending = try work.buildCommit(byValue: proposals, includePending: includePending, includePath: includePath, wireFormat: wireFormat,
                                           authenticatedData: authenticatedData, ratchetTreeInWelcome: ratchetTreeInWelcome)
        self = work
        return pending
    }
}
