/// An ephemeral device id (Inviso's `client1`, `client2`, `deviceId`): 1 to 128 visible ASCII
/// characters, new for every pairing, removed by a purge.
///
/// Its description is redacted so it never reaches a log; read ``text`` where the protocol needs it.
public struct DeviceID: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The id as sent.
    public let text: String

    /// Validates `text`; nil when empty, longer than 128 bytes or not visible ASCII.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= RendezvousLimits.maximumDeviceIDLength,
              IdentifierAlphabet.isVisibleASCII(text)
        else { return nil }
        self.text = text
    }

    private init(uncheckedText text: String) { self.text = text }

    /// A fresh random (version 4) UUID in lowercase: a new ephemeral id for one pairing.
    public static func random() -> DeviceID { DeviceID(uncheckedText: UUIDText.random()) }

    /// Redacted: device ids identify a pairing.
    public var description: String { "DeviceID(redacted)" }
    /// Redacted: device ids identify a pairing.
    public var debugDescription: String { description }
}
