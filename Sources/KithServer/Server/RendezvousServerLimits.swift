import KithRendezvous

/// The server's tunable bounds and timings; the defaults are the documented ones
/// (`docs/SERVER.md`), tests shrink them.
public struct RendezvousServerLimits: Sendable {
    // MARK: Rooms

    /// Seconds a room lives after its last join or leave (a room with a member never expires).
    public var roomLifetimeSeconds = 7 * 86_400

    /// The room lifetime of Inviso's "until purged": rooms are deleted only by `DELETE /api/rooms/<id>` or a purge
    /// (`kith serve --room-lifetime 0`); written as a lifetime of 100 years so that every expiry stays a real time.
    public static let roomLifetimeUntilPurged = 100 * 365 * 86_400

    // MARK: REST rate limits (per node, in memory)

    /// Every REST request, per source address (IPv6 by /64): 60 at once, 1 a second after.
    public var requestsPerSource = RateLimitRule(burst: 60, perSecond: 1)
    /// Accepts, checks and creates that collide (the calls that guess codes), per source: 20 at once, then 20 a
    /// minute (a create needs one and gives it back when its code was free).
    public var guessesPerSource = RateLimitRule(burst: 20, perSecond: 1.0 / 3)
    /// Wrong guesses of join codes on this node, from every source together: 600 at once, then 600
    /// an hour. A wrong guess is an accept or a check answered `404`/`409`, or a create whose code is
    /// already in use; a request finding the budget empty is answered `429` before the store is
    /// asked, so no answer tells a live code from a free one. This bounds what many addresses
    /// together can learn of the code space in one pairing window (`docs/SERVER.md`, "Guessing").
    public var wrongGuessesPerNode = RateLimitRule(burst: 600, perSecond: 600.0 / 3_600)
    /// Accepts of one join code, from every source together: 10 at once, then 10 a minute.
    public var acceptsPerCode = RateLimitRule(burst: 10, perSecond: 1.0 / 6)
    /// Buckets each limiter tracks at most.
    public var rateLimiterKeys = 65_536

    // MARK: Connections

    /// Time a new connection has to send its first complete request head; a connection still silent
    /// (or mid-head) by then is closed. Until a request arrives no HTTP idle timeout applies, so
    /// without this a connection that never sends a byte would be held forever, and a graceful
    /// shutdown would wait on it.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// Time an HTTP request has to arrive whole, from its first bytes (for a connection's first
    /// request: from its complete head) to the end of its body; a later one is answered 408 and
    /// its connection closed. Hummingbird's idle timeout counts silence only, so without this a
    /// body trickled a byte every few seconds would hold its connection forever. Responses and
    /// upgraded WebSockets are not bounded by it.
    public var requestTimeout: Duration = .seconds(30)
    /// TCP connections one source (an IPv4 address, an IPv6 /64: the rate limits' key) may hold
    /// open on this node, whatever they carry (REST, signaling, push subscribers); a further one is
    /// closed as soon as it is accepted, before any byte is read. Sized for households and small
    /// offices behind one NAT address, far below what starves the node.
    public var connectionsPerSource = 64

    // MARK: Signaling

    /// Largest signaling message, in bytes; a larger one closes the connection with 1009.
    public var maximumMessageBytes = RendezvousLimits.maximumSignalingMessageBytes
    /// Messages one connection may send: 60 at once, 20 a second after; excess ones are dropped
    /// with a `Rate limit exceeded` error.
    public var messagesPerConnection = RateLimitRule(burst: 60, perSecond: 20)
    /// Dropped messages in a row after which the connection is closed with 1008.
    public var rateLimitStrikes = 50
    /// Interval of the server's RFC 6455 pings; a connection that has not answered the previous
    /// ping by the next one is closed (half-open sockets).
    public var pingInterval: Duration = .seconds(30)
    /// A connection in no room that sends nothing for this long is closed with 1001.
    public var idleTimeout: Duration = .seconds(600)
    /// Messages queued for one connection; a connection that falls further behind is closed with 1008.
    public var outboxCapacity = 256
    /// Signaling connections one node holds; further upgrades are refused.
    public var maximumConnections = 20_000
    /// Share of ``maximumConnections`` kept for sources holding no signaling connection yet: once
    /// the node holds all but ``reservedConnections``, a source that already holds one is refused
    /// (1013), so one busy source (or a few) cannot take the node's last slots from everyone else.
    public var reservedConnectionShare = 0.125
    /// Signaling slots only a source with no signaling connection yet may take
    /// (``reservedConnectionShare`` of ``maximumConnections``, rounded down: none below 8).
    public var reservedConnections: Int {
        let share = reservedConnectionShare.isFinite ? min(1, max(0, reservedConnectionShare)) : 0
        return max(0, min(maximumConnections - 1, Int(Double(maximumConnections) * share)))
    }
    /// Bounds of the blind relay (binary frames between the two members of a room).
    public var relay = RelayLimits()
    /// Shortest time between two presence pushes to the same side of a room (Inviso's `ping_peer` and the push on a
    /// lone `join_room`), on each node: nobody can flood a phone.
    public var presencePushInterval: Duration = .seconds(30)
    /// How long APNs or FCM may hold a presence push for an offline phone (Inviso's 5 minutes).
    public var presencePushTimeToLiveSeconds = 300
    /// Retired: signaling WebSockets are always served by NIO channel handlers (no task per
    /// connection); the task-per-WebSocket engine this switched to is gone.
    @available(*, unavailable, message: "signaling always runs on channel handlers; the task-per-WebSocket engine was retired (docs/SERVER.md)")
    public var signalingOnChannelHandlers: Bool {
        get { true }
        set {}
    }

    // MARK: Housekeeping

    /// Interval of the sweep that deletes expired pairings and rooms.
    public var sweepInterval: Duration = .seconds(60)

    /// The documented defaults.
    public init() {}
}
