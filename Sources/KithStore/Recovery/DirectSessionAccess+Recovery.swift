extension DirectSessionAccess {
    /// Keeps a recovery share handed over by contact `owner` inside the transaction that opens its direct message
    /// (the caller has checked that the share names `owner`). An older or equal generation is ignored.
    @discardableResult
    public func acceptRecoveryShare(_ share: [UInt8], from owner: String, setID: String, generation: Int64) throws
        -> RecoveryShareAcceptance {
        try RecoveryShareRows.accept(share: share, owner: owner, setID: setID, generation: generation, in: db,
                                     sealer: sealer, now: now)
    }

    /// Deletes the share held for contact `owner` when its generation is `generation` or older, inside the
    /// transaction that opens the owner's `recovery_revoke` (the caller has checked that the revocation names `owner`
    /// and that `owner` sent it). Returns whether a share was deleted.
    @discardableResult
    public func revokeRecoveryShares(of owner: String, upTo generation: Int64) throws -> Bool {
        try RecoveryShareRows.revoke(owner: owner, upTo: generation, in: db)
    }
}
