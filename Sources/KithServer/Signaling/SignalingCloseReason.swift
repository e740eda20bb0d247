/// Why the server closes a signaling connection itself.
enum SignalingCloseReason: Sendable, Equatable {
    /// In no room and silent for the idle timeout (1001 going away).
    case idle
    /// Its queue of outgoing messages overflowed: it does not read (1008).
    case slowConsumer
    /// It kept sending over its rate limit (1008).
    case rateLimit
    /// The node holds its maximum of connections (1013 try again later).
    case overloaded
    /// A relay frame above the relay's frame limit (1009 message too big).
    case relayFrameTooLarge
    /// The server shuts down (1001 going away).
    case shutdown

    /// The RFC 6455 status code.
    var code: UInt16 {
        switch self {
        case .idle, .shutdown: 1001
        case .slowConsumer, .rateLimit: 1008
        case .overloaded: 1013
        case .relayFrameTooLarge: 1009
        }
    }

    /// The close reason text.
    var text: String {
        switch self {
        case .idle: "idle"
        case .slowConsumer: "too far behind"
        case .rateLimit: "rate limit exceeded"
        case .overloaded: "server full"
        case .relayFrameTooLarge: "relay frame too large"
        case .shutdown: "going away"
        }
    }
}
