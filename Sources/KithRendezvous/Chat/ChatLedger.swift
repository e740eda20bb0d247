import Synchronization

/// What a relay chat counts across reconnections: the lines sent (the last ``rememberedLines`` of them kept to name
/// them) and the lines received. After a reconnection each side sends its received count
/// (``ChatMessage/resume(receivedLines:)``); ``undelivered(peerReceived:)`` tells which sent lines were lost with the
/// dropped connection, so the user is told instead of left guessing. Lines are not sent twice.
public final class ChatLedger: Sendable {
    /// How many of the last sent lines are kept to be named when lost.
    public static let rememberedLines = 64

    private struct Counts {
        var sent: UInt32 = 0
        var received: UInt32 = 0
        var recent: [String] = []
    }

    private let counts = Mutex(Counts())

    /// An empty ledger, for one chat.
    public init() {}

    /// Lines received so far.
    public var receivedLines: UInt32 { counts.withLock { $0.received } }
    /// Lines sent so far (less those reported lost).
    public var sentLines: UInt32 { counts.withLock { $0.sent } }

    /// One line went out.
    public func recordSent(_ line: String) {
        counts.withLock {
            $0.sent &+= 1
            $0.recent.append(line)
            if $0.recent.count > Self.rememberedLines { $0.recent.removeFirst($0.recent.count - Self.rememberedLines) }
        }
    }

    /// One line came in.
    public func recordReceived() {
        counts.withLock { $0.received &+= 1 }
    }

    /// The lines sent beyond what the peer says it received: how many, and the texts of those still remembered
    /// (the most recent). They are then forgotten (the count restarts from the peer's), so a later drop does not
    /// report them again. A peer claiming more than was sent is answered with nothing lost.
    public func undelivered(peerReceived: UInt32) -> (count: Int, lines: [String]) {
        counts.withLock {
            guard peerReceived < $0.sent else { return (0, []) }
            let missing = Int($0.sent - peerReceived)
            let named = Array($0.recent.suffix(missing))
            $0.recent.removeLast(named.count)
            $0.sent = peerReceived
            return (missing, named)
        }
    }
}
