import KithFeed
import KithIdentity
import KithStore

/// Resolving a recorded fork of a contact's feed the other way: switching this copy to the branch of the entry that
/// was recorded as evidence (docs/CONTINUITY.md section 3). The typical case: a contact's phone was stolen and the
/// thief kept posting on the old branch, while the contact, restored from a backup, published a key rotation at a
/// sequence the thief had used; after checking with them in person, switch their feed to the branch with the rotation.
extension Account.Feed {
    /// The recorded entries of `feed` that ``switchFork(of:to:resettingDirectChannel:)`` could adopt now, ordered by sequence.
    public func forkSwitchChoices(of feed: FeedID) async throws(KithError) -> [ForkSwitchChoice] {
        try await BlockingWork.run { () throws(KithError) -> [ForkSwitchChoice] in
            do throws(StoreError) { return try account.store.forkSwitchChoices(of: feed) } catch { throw .store(error) }
        }
    }

    /// Switches this copy of a contact's `feed` to the branch of a recorded conflicting entry, in one transaction:
    /// the held entries from its sequence on are removed (kept as fork evidence, so the switch can be switched back)
    /// and what they did is undone (key rotations, the contact's keys, profile, introductions); the chosen entry and
    /// the recorded entries of its branch that follow it are linked as an import links them. Then the passes that
    /// follow an import run (an adopted direct message is opened as usual), and ``AccountEvent/messagesStored(feed:messages:)``
    /// (and ``AccountEvent/keysRotated(_:)`` when the feed's keys changed) are emitted.
    ///
    /// - Parameters:
    ///   - feed: the contact's feed whose copy switches branch.
    ///   - messageID: the recorded entry to adopt; nil picks the only choice (``forkSwitchChoices(of:)``).
    ///   - resettingDirectChannel: true when the dropped branch holds direct or one-time messages to this device: they
    ///     are dropped with it and the direct channel with the contact is forgotten (sessions, prekeys both ways, pools,
    ///     KeyPackages, push tokens it handed over), so the next message either way starts afresh; without it such a
    ///     switch is refused.
    /// - Throws: ``KithError/store(_:)`` with `StoreError.forkSwitchRefused` when the switch is refused (the own
    ///   feed, no or several choices, an unknown entry, or a dropped entry whose effects cannot be undone: a direct,
    ///   one-time or group message to this device, a retraction of a kept message); nothing changed then.
    @discardableResult
    public func switchFork(of feed: FeedID, to messageID: String? = nil, resettingDirectChannel: Bool = false) async throws(KithError) -> ForkSwitchReport {
        try await BlockingWork.run { () throws(KithError) -> ForkSwitchReport in
            try account.switchForkBlocking(of: feed, to: messageID, resettingDirectChannel: resettingDirectChannel)
        }
    }
}

extension Account {
    func switchForkBlocking(of feed: FeedID, to messageID: String?, resettingDirectChannel: Bool = false) throws(KithError) -> ForkSwitchReport {
        guard feed != feedID else { throw .store(.forkSwitchRefused(.ownFeed)) }
        let report: ForkSwitchReport
        do throws(StoreError) {
            report = try store.switchFork(
                of: feed, to: messageID, resettingDirectChannel: resettingDirectChannel, decryptor: deferredDecryptor, now: clock())
            // The decryptor knew the contact's keys as they were before the switch: entries of the new branch sealed to
            // keys its rotation brought are opened now, with the keys as they stand.
            if report.keysChanged { try store.decryptHeldMessages(of: feed, decryptor: decryptor) }
        } catch {
            throw .store(error)
        }
        let adopted = report.adoptedMessageIDs.compactMap { try? MessageID($0) }
        if !adopted.isEmpty { hub.emit(.messagesStored(feed: feed, messages: adopted)) }
        if report.keysChanged { hub.emit(.keysRotated(feed)) }
        try processAfterImportBlocking()
        return report
    }
}
