import KithRendezvous
import Synchronization

/// The server's side of one signaling connection: its room, its peer, its rate limit and the
/// queue of messages waiting to be written.
///
/// The connection's own task calls the `begin`/`finish`/``admit(rule:now:)`` methods; a
/// ``SignalBus`` calls ``receive(_:)`` from other connections' tasks. Messages are queued in
/// order under the lock; a queue that overflows closes the connection.
final class SignalingConnection: Sendable {
    let address: MemberAddress
    private let outbox: AsyncStream<ServerMessage>.Continuation
    private let state: Mutex<State>
    private let bufferLimit: Int

    struct State {
        var room: RoomID?
        var peer: MemberAddress?
        var isInitiator = false
        /// A join in progress: events for this room wait until the join is answered.
        var joining: RoomID?
        var buffered: [SignalEvent] = []
        var bucket: TokenBucket
        var strikes = 0
        var lastActivity: ContinuousClock.Instant
        var closeReason: SignalingCloseReason?
    }

    /// Admission of one inbound message under the rate limit.
    enum Admission: Equatable {
        case allowed
        case limited
        case strikeOut
    }

    init(address: MemberAddress, outbox: AsyncStream<ServerMessage>.Continuation, rule: RateLimitRule, now: Int64, bufferLimit: Int) {
        self.address = address
        self.outbox = outbox
        self.bufferLimit = bufferLimit
        state = Mutex(State(bucket: TokenBucket(rule: rule, now: now), lastActivity: .now))
    }

    // MARK: Outgoing

    /// Queues a message for the client.
    func send(_ message: ServerMessage) {
        state.withLock { state in enqueue(message, &state) }
    }

    private func enqueue(_ message: ServerMessage, _ state: inout State) {
        guard state.closeReason == nil else { return }
        if case .dropped = outbox.yield(message) { close(.slowConsumer, &state) }
    }

    private func close(_ reason: SignalingCloseReason, _ state: inout State) {
        if state.closeReason == nil { state.closeReason = reason }
        outbox.finish()
    }

    /// Asks the writer to close the connection for `reason` (the first reason wins).
    func requestClose(_ reason: SignalingCloseReason) {
        state.withLock { close(reason, &$0) }
    }

    /// Why the server closes the connection, once decided.
    var closeReason: SignalingCloseReason? { state.withLock { $0.closeReason } }

    /// Ends the outgoing queue (the connection is over).
    func finish() { outbox.finish() }

    // MARK: Inbound

    /// Counts one inbound message against the rate limit and as activity.
    func admit(rule: RateLimitRule, strikeLimit: Int, now: Int64) -> Admission {
        state.withLock { state in
            state.lastActivity = .now
            switch state.bucket.take(rule: rule, now: now) {
            case .allowed:
                state.strikes = 0
                return .allowed
            case .limited:
                state.strikes += 1
                return state.strikes > strikeLimit ? .strikeOut : .limited
            }
        }
    }

    /// True when the connection is in no room and has been silent for `timeout`.
    func isIdle(timeout: Duration) -> Bool {
        state.withLock { $0.room == nil && $0.joining == nil && ContinuousClock.now - $0.lastActivity >= timeout }
    }

    /// The room and peer, for relaying.
    var placement: (room: RoomID?, peer: MemberAddress?) { state.withLock { ($0.room, $0.peer) } }

    // MARK: Room membership

    /// Marks a join of `room` in progress: events for it are held until ``finishJoin(_:joined:messages:)``.
    func beginJoin(_ room: RoomID) {
        state.withLock { state in
            state.joining = room
            state.buffered = []
        }
    }

    /// Ends a join: on success records the room, queues `messages` (`room_joined`, `room_ready`),
    /// then applies the events that arrived meanwhile; on failure drops them.
    func finishJoin(_ room: RoomID, joined: JoinedRoom?, messages: [ServerMessage]) {
        state.withLock { state in
            let held = state.buffered
            state.joining = nil
            state.buffered = []
            guard let joined else {
                for message in messages { enqueue(message, &state) }
                return
            }
            state.room = room
            state.peer = joined.peer?.address
            state.isInitiator = joined.isInitiator
            for message in messages { enqueue(message, &state) }
            for event in held where event.room == room { apply(event, &state) }
        }
    }

    /// Forgets the room (after `leave_room`).
    func leaveRoom() {
        state.withLock { state in
            state.room = nil
            state.peer = nil
        }
    }

    /// Applies an event from another connection.
    func receive(_ event: SignalEvent) {
        state.withLock { state in
            if state.joining == event.room {
                guard state.buffered.count < bufferLimit else { return close(.slowConsumer, &state) }
                state.buffered.append(event)
            } else if state.room == event.room {
                apply(event, &state)
            }
        }
    }

    private func apply(_ event: SignalEvent, _ state: inout State) {
        switch event {
        case .peerJoined(let peer, _, let ready):
            state.peer = peer
            enqueue(ready, &state)
        case .relayed(let from, _, let message):
            guard state.peer == from else { return }
            enqueue(message, &state)
        case .peerGone(_, let message):
            state.peer = nil
            enqueue(message, &state)
        case .removed(_, let message):
            state.room = nil
            state.peer = nil
            enqueue(message, &state)
        }
    }
}
