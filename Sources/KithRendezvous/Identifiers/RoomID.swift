/// The id of a paired room (Inviso's `roomid` / `roomId`).
///
/// Rooms this server creates get 24 random bytes as 48 lowercase hex digits; a request may name
/// any 1 to 128 visible ASCII characters (a room that does not exist is simply not found). The id
/// is a bearer secret of the two peers, so its description is redacted.
public struct RoomID: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The id as sent.
    public let text: String

    /// Validates `text`; nil when empty, longer than 128 bytes or not visible ASCII.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= RendezvousLimits.maximumRoomIDLength,
              IdentifierAlphabet.isVisibleASCII(text)
        else { return nil }
        self.text = text
    }

    private init(uncheckedText: String) { text = uncheckedText }

    /// A fresh room id: ``RendezvousLimits/roomIDRandomBytes`` bytes from the system's
    /// cryptographic random source, as lowercase hex.
    public static func random() -> RoomID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<RendezvousLimits.roomIDRandomBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return RoomID(uncheckedText: IdentifierAlphabet.hex(bytes))
    }

    /// Redacted: room ids are bearer secrets.
    public var description: String { "RoomID(redacted)" }
    /// Redacted: room ids are bearer secrets.
    public var debugDescription: String { description }
}
