/// Committing arbitrary proposals by value (RFC 9420 §12.4).
extension GroupState {
    /// Creates a commit of `proposals` by value (for example a GroupContextExtensions proposal), together with the
    /// pending proposals of the epoch when `includePending` is true. Like ``commit(adding:removing:includePending:includePath:wireFormat:authenticatedData:ratchetTreeInWelcome:)``,
    /// `self` only advances its message-key ratchet; the new epoch is in ``PendingCommit/newState``.
    public mutating func commit(
        proposals: [Proposal], includePending: Bool = true, includePath: Bool = true, wireFormat: WireFormat = .publicMessage,
        authenticatedData: [UInt8] = [], ratchetTreeInWelcome: Bool = true
    ) throws -> PendingCommit {
        var work = self
        let pending = try work.buildCommit(byValue: proposals, includePending: includePending, includePath: includePath, wireFormat: wireFormat,
                                           authenticatedData: authenticatedData, ratchetTreeInWelcome: ratchetTreeInWelcome)
        self = work
        return pending
    }
}
