import KithRendezvous
import NIOCore
import Synchronization

/// The server's side of one signaling connection: its room, its peer, its rate limit and the
/// queue of messages waiting to be written.
///
/// Its ``SignalingChannelHandler`` calls the `begin`/`finish`/``admit(rule:strikeLimit:now:)``
/// methods; a ``SignalBus`` calls ``receive(_:)`` from other connections. Messages are queued in
/// order under the lock into the connection's ``SignalingOutbox``; a queue that overflows closes
/// the connection.
final class SignalingConnection: Sendable {
    let address: MemberAddress
    private let outbox: any SignalingOutbox
    private let state: Mutex<State>
    private let bufferLimit: Int
    private let relayLimits: RelayLimits
    private let statistics: RelayStatistics

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
        /// This connection sent `relay_start` in the current room: its binary messages are relay
        /// frames (never JSON) until it leaves the room, even once the relay ends.
        var relayMode = false
        /// This connection asked for the relay with its current peer.
        var relayRequested = false
        /// The peer sent `relay_start` in the current room.
        var peerRelayRequested = false
        /// Relay bytes and frames queued and not yet written.
        var queuedRelayBytes = 0
        var queuedRelayFrames = 0
        /// Signaling messages queued and not yet written.
        var queuedMessages = 0
        var relayBytes: TokenBucket
        var relayFrames: TokenBucket

        /// Both members asked: binary frames are forwarded.
        var relayActive: Bool { relayRequested && peerRelayRequested && peer != nil }

        mutating func resetRelay() {
            relayRequested = false
            peerRelayRequested = false
        }
    }

    /// Admission of one inbound message under the rate limit.
    enum Admission: Equatable {
        case allowed
        case limited
        case strikeOut
    }

    init(
        address: MemberAddress, outbox: any SignalingOutbox, rule: RateLimitRule, now: Int64, bufferLimit: Int,
        relayLimits: RelayLimits, statistics: RelayStatistics
    ) {
        self.address = address
        self.outbox = outbox
        self.bufferLimit = bufferLimit
        self.relayLimits = relayLimits
        self.statistics = statistics
        state = Mutex(State(
            bucket: TokenBucket(rule: rule, now: now), lastActivity: .now,
            relayBytes: TokenBucket(rule: relayLimits.bytesPerConnection, now: now),
            relayFrames: TokenBucket(rule: relayLimits.framesPerConnection, now: now)))
    }

    // MARK: Outgoing

    /// Queues a message for the client.
    func send(_ message: ServerMessage) {
        state.withLock { state in enqueue(message, &state) }
    }

    private func enqueue(_ message: ServerMessage, _ state: inout State) {
        guard state.closeReason == nil else { return }
        state.queuedMessages += 1
        guard state.queuedMessages <= bufferLimit else { return close(.slowConsumer, &state) }
        if !outbox.push(.message(message)) { close(.slowConsumer, &state) }
    }

    private func enqueueRelay(_ bytes: ByteBuffer, _ state: inout State) {
        guard state.closeReason == nil else { return }
        state.queuedRelayBytes += bytes.readableBytes
        state.queuedRelayFrames += 1
        guard state.queuedRelayBytes <= relayLimits.outboxBytes, state.queuedRelayFrames <= relayLimits.outboxFrames else {
            return close(.slowConsumer, &state)
        }
        if !outbox.push(.relay(bytes)) { close(.slowConsumer, &state) }
    }

    /// The writer wrote `frame`: it no longer counts against the queue's bounds.
    func written(_ frame: SignalingOutbound) {
        state.withLock { state in
            switch frame {
            case .message: state.queuedMessages -= 1
            case .relay(let bytes):
                state.queuedRelayBytes -= bytes.readableBytes
                state.queuedRelayFrames -= 1
            }
        }
    }

    /// The channel wrote `messages` signaling messages and `relayFrames` relay frames of
    /// `relayBytes` bytes in all: they no longer count against the queue's bounds.
    func written(messages: Int, relayFrames: Int, relayBytes: Int) {
        state.withLock { state in
            state.queuedMessages -= messages
            state.queuedRelayFrames -= relayFrames
            state.queuedRelayBytes -= relayBytes
        }
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
            state.relayMode = false
            state.resetRelay()
            for message in messages { enqueue(message, &state) }
            for event in held where event.room == room { apply(event, &state) }
        }
    }

    /// Forgets the room (after `leave_room`).
    func leaveRoom() {
        state.withLock { state in
            state.room = nil
            state.peer = nil
            state.relayMode = false
            state.resetRelay()
        }
    }

    // MARK: Relay

    /// What `relay_start` found.
    enum RelayRequest: Equatable {
        /// In no room.
        case notInRoom
        /// In a room without a peer.
        case noPeer
        /// Recorded: tell `peer` (the relay is now active when the peer had asked already).
        case requested(room: RoomID, peer: MemberAddress)
    }

    /// Records `relay_start`; queues `relay_ready` when the peer had asked already.
    func requestRelay() -> RelayRequest {
        state.withLock { state in
            guard let room = state.room else { return .notInRoom }
            guard let peer = state.peer else { return .noPeer }
            let wasActive = state.relayActive
            state.relayRequested = true
            state.relayMode = true
            if !wasActive && state.relayActive { activateRelay(room, &state) }
            return .requested(room: room, peer: peer)
        }
    }

    private func activateRelay(_ room: RoomID, _ state: inout State) {
        statistics.recordActivation()
        enqueue(.relayReady(roomID: room), &state)
    }

    /// True once this connection asked for the relay in its room (binary frames are relay
    /// frames from then on, never JSON).
    var inRelayMode: Bool { state.withLock { $0.room != nil && $0.relayMode } }

    /// Where a relay frame goes now: nil unless both members are in relay mode.
    var relayTarget: (room: RoomID, peer: MemberAddress)? {
        state.withLock { state in
            guard state.relayActive, let room = state.room, let peer = state.peer else { return nil }
            return (room, peer)
        }
    }

    /// Takes `bytes` and one frame from the relay buckets; otherwise answers the milliseconds to
    /// wait before trying again.
    func takeRelayBudget(bytes: Int, now: Int64) -> Int64 {
        state.withLock { state in
            let amount = Double(bytes)
            let byteWait = state.relayBytes.wait(for: amount, rule: relayLimits.bytesPerConnection, now: now)
            let frameWait = state.relayFrames.wait(for: 1, rule: relayLimits.framesPerConnection, now: now)
            guard byteWait == 0, frameWait == 0 else { return max(byteWait, frameWait, 1) }
            _ = state.relayBytes.take(amount, rule: relayLimits.bytesPerConnection, now: now)
            _ = state.relayFrames.take(1, rule: relayLimits.framesPerConnection, now: now)
            return 0
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
            state.resetRelay()
            enqueue(ready, &state)
        case .relayed(let from, _, let message):
            guard state.peer == from else { return }
            enqueue(message, &state)
        case .peerGone(_, let message):
            state.peer = nil
            state.resetRelay()
            enqueue(message, &state)
        case .removed(_, let message):
            state.room = nil
            state.peer = nil
            state.relayMode = false
            state.resetRelay()
            enqueue(message, &state)
        case .relayRequested(let from, let room):
            guard state.peer == from else { return }
            let wasActive = state.relayActive
            state.peerRelayRequested = true
            if !wasActive && state.relayActive { activateRelay(room, &state) }
        case .relayFrame(let from, _, let bytes):
            guard state.peer == from, state.relayActive else { return }
            enqueueRelay(bytes, &state)
        }
    }
}
