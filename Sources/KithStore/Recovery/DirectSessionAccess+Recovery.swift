extension DirectSessionAccess {
    /// Keeps a recovery share handed over by contact `owner` inside the transaction that opens its direct message
    /// (the caller has checked that the share names `owner`). An older or equal generation is ignored.
    @discardableResult
    public func acceptRecoveryShare(_ share: [UInt8], from owner: String, setID: String, generation: Int64) throws
        -> RecoveryShareAcceptance {
        try RecoveryShareRows.accept(share: share, owner: owner, setID: setID, generation: generation, in: db,
                                     sealer: sealer, now: now)
    }
}
