/// Where an invite's creator answers joiners who never met it: a `kith serve` URL and the rendezvous join code it
/// offers there (carried in the invite's reach field, docs/INVITES.md).
public struct InviteRelay: Sendable, Hashable {
    /// The server's base URL (`http://` or `https://`).
    public var server: String
    /// The join code (6 to 64 letters, digits, `-`, `_`).
    public var joinCode: String

    /// A relay.
    public init(server: String, joinCode: String) {
        self.server = server
        self.joinCode = joinCode
    }
}
