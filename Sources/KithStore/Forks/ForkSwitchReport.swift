import KithIdentity

/// What a fork switch (``FeedStore/switchFork(of:to:decryptor:now:)``) changed in the copy of one feed.
public struct ForkSwitchReport: Sendable, Hashable {
    /// The switched feed.
    public let feedID: FeedID
    /// The sequence from which the copy now follows the other branch.
    public let sequence: UInt32
    /// Entries adopted from the recorded evidence, in order (the chosen one first, then those of its branch that
    /// followed it), plus held entries the new branch let through.
    public let adoptedMessageIDs: [String]
    /// Entries removed from the copy, in order; each is now fork evidence.
    public let droppedMessageIDs: [String]
    /// The copy's head after the switch (the next sync asks for what follows it).
    public let headSequence: UInt32?
    /// Whether a verified key rotation was undone or adopted: the feed's keys changed.
    public let keysChanged: Bool

    /// Creates a report.
    public init(
        feedID: FeedID, sequence: UInt32, adoptedMessageIDs: [String], droppedMessageIDs: [String], headSequence: UInt32?, keysChanged: Bool
    ) {
        self.feedID = feedID
        self.sequence = sequence
        self.adoptedMessageIDs = adoptedMessageIDs
        self.droppedMessageIDs = droppedMessageIDs
        self.headSequence = headSequence
        self.keysChanged = keysChanged
    }
}
