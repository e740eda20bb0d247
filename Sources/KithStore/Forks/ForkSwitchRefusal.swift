/// Why a fork switch (``FeedStore/switchFork(of:to:decryptor:now:)``) was refused. Nothing changed.
public enum ForkSwitchRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The feed is this device's own feed: its forks are handled by the restored-head guard, never switched here.
    case ownFeed
    /// No recorded entry of the feed can take the place of a held one.
    case noFork(feed: String)
    /// Several recorded entries could be adopted: the caller must name one.
    case ambiguous(feed: String, choices: [ForkSwitchChoice])
    /// The named message is not among the entries recorded as fork evidence of the feed.
    case unknownEntry(feed: String, messageID: String)
    /// The named entry is already the one held at its sequence.
    case alreadyHeld(messageID: String)
    /// The named entry does not follow the entry held just before it, so it cannot take its place; the earlier
    /// entries of its branch (the choices) must be adopted first.
    case notOnHeldChain(messageID: String, sequence: UInt32, choices: [ForkSwitchChoice])
    /// The entries that would be dropped left effects that cannot be undone here (each item names one entry).
    case irreversibleEntries([String])
    /// The branch to drop holds more entries than a switch handles at once.
    case branchTooLong(count: Int, limit: Int)
    /// The entries of the branch to drop hold more bytes than a switch reads at once (`StoreLimits.maxForkSwitchBytes`).
    case branchTooLarge(bytes: Int, limit: Int)
    /// The contact's keys before the dropped branch's key rotation cannot be told (no earlier verified rotation,
    /// and the stored card does not carry the feed's original key).
    case contactKeysUnknown(feed: String)
    /// The entry to adopt does not link under the feed's rules as they stand without the dropped branch (for
    /// example: its signature does not verify with the keys in force there).
    case adoptedEntryRejected(messageID: String, reason: String)

    /// An actionable message.
    public var description: String {
        switch self {
        case .ownFeed:
            "your own feed cannot be switched: after a restore, the restored-head guard learns its head from your contacts "
                + "(docs/CONTINUITY.md section 3)"
        case .noFork(let feed):
            "feed \(feed) has no recorded conflicting entry that could take the place of a held one (kith feed forks --all)"
        case .ambiguous(let feed, let choices):
            "feed \(feed) has several entries you could switch to; pass --to with one of: " + Self.list(choices)
        case .unknownEntry(let feed, let id):
            "\(id) is not recorded as fork evidence of feed \(feed); list the choices with kith feed forks --all"
        case .alreadyHeld(let id):
            "\(id) is already the entry held at its sequence; nothing to switch"
        case .notOnHeldChain(let id, let sequence, let choices):
            "\(id) (#\(sequence)) does not follow the entry held at #\(sequence &- 1); switch to the first entry of its branch first"
                + (choices.isEmpty ? "" : ": " + Self.list(choices))
        case .irreversibleEntries(let items):
            "the switch would drop entries whose effects cannot be undone here, so nothing changed: " + items.joined(separator: "; ")
                + ". To switch anyway, dropping direct messages to you with the branch and starting the direct channel with the contact afresh: "
                + "kith feed forks --switch FEED --reset-direct (group messages cannot be dropped). Or acknowledge the fork (kith feed forks --acknowledge FEED)"
        case .branchTooLong(let count, let limit):
            "the branch to drop holds \(count) entries, more than the \(limit) a switch handles; nothing changed"
        case .branchTooLarge(let bytes, let limit):
            "the branch to drop holds \(bytes) bytes of entries, more than the \(limit) a switch reads; nothing changed"
        case .contactKeysUnknown(let feed):
            "the keys of \(feed) before the dropped branch's key rotation are not known here (no earlier verified rotation, "
                + "and the stored card is not of the original key); nothing changed"
        case .adoptedEntryRejected(let id, let reason):
            "\(id) does not link in place of the dropped branch (\(reason)); nothing changed"
        }
    }

    private static func list(_ choices: [ForkSwitchChoice]) -> String {
        choices.map { "\($0.messageID) (#\($0.sequence))" }.joined(separator: ", ")
    }
}

/// An entry recorded as fork evidence that a switch could adopt: it follows the entry held just before it.
public struct ForkSwitchChoice: Sendable, Hashable {
    /// The entry's message id.
    public let messageID: String
    /// Its sequence (the held entry there would be dropped, with everything after it).
    public let sequence: UInt32

    /// Creates a choice.
    public init(messageID: String, sequence: UInt32) {
        self.messageID = messageID
        self.sequence = sequence
    }
}
