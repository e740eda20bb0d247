/// Which side of the secure link a device runs after pairing: the member that joined the room
/// first (the room's initiator, stable across rejoins) starts the Noise handshake.
public enum RelayRole: Sendable, Hashable {
    /// Runs the Noise initiator (first to join the room).
    case initiator
    /// Runs the Noise responder.
    case responder
}
