/// The id the signaling server gives one WebSocket connection (Inviso's `clientId`, a random
/// UUID), sent in `connected` and as `from` on relayed messages.
public struct ClientID: Sendable, Hashable, CustomStringConvertible {
    /// The id as text.
    public let text: String

    /// Wraps an id received from the server; nil when empty, longer than 128 bytes or not visible ASCII.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= RendezvousLimits.maximumDeviceIDLength,
              IdentifierAlphabet.isVisibleASCII(text)
        else { return nil }
        self.text = text
    }

    private init(uncheckedText: String) { text = uncheckedText }

    /// A fresh random (version 4) UUID in lowercase.
    public static func random() -> ClientID {
        ClientID(uncheckedText: UUIDText.random())
    }

    /// The id.
    public var description: String { text }
}
