/// What a side-phase handler sends next and whether it expects anything more.
public struct SyncSideStep: Sendable, Equatable {
    /// Whole messages to send, in order (each fragmented into side chunks).
    public var messages: [[UInt8]]
    /// True once this side neither sends nor expects anything more in the phase.
    public var finished: Bool

    /// Creates a step.
    public init(messages: [[UInt8]] = [], finished: Bool) {
        self.messages = messages
        self.finished = finished
    }
}

/// The application logic of a ``SyncSidePhase`` (the inner circle's pool exchange): a small
/// protocol of whole messages both sides run before the sync session on the same link.
///
/// Contract: each side sends at least one message in ``opening(peer:channelBinding:)``, and a
/// side reports `finished` only once it has read every message the peer will send in the phase,
/// so the records that follow on the link belong to the sync session.
public protocol SyncSideHandler: Sendable {
    /// The first messages of this side; `channelBinding` is the link's handshake hash.
    func opening(peer: SyncPeer, channelBinding: [UInt8]) async -> SyncSideStep
    /// A complete message from the peer.
    func received(_ message: [UInt8], peer: SyncPeer) async -> SyncSideStep
    /// The phase ended early (link failure, a bad record): forget what is in flight.
    func interrupted(peer: SyncPeer) async
}
