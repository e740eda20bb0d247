/// The short code that pairs two devices (Inviso's `joinid`): 6 to 64 ASCII letters, digits, `-`
/// or `_`. Inviso's clients use 6 decimal digits; longer codes are accepted and harder to guess.
///
/// A join code is a secret until it is used: its description is redacted so it never reaches a
/// log by accident; read ``text`` to show it to the user.
public struct JoinCode: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The code as typed.
    public let text: String

    /// Validates `text`; nil when its length or alphabet is outside the rules above.
    public init?(_ text: String) {
        let length = text.utf8.count
        guard length >= RendezvousLimits.minimumJoinCodeLength, length <= RendezvousLimits.maximumJoinCodeLength,
              IdentifierAlphabet.isCodeAlphabet(text)
        else { return nil }
        self.text = text
    }

    /// A fresh code of `count` random decimal digits (at least 6), drawn from the system's
    /// cryptographic random source.
    public static func randomDigits(count: Int = 8) -> JoinCode {
        let length = max(count, RendezvousLimits.minimumJoinCodeLength)
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<length).map { _ in Character(String(UInt8.random(in: 0...9, using: &generator))) }
        // Digits always satisfy the alphabet and the length was clamped into range.
        return JoinCode(uncheckedText: String(digits))
    }

    private init(uncheckedText: String) { text = uncheckedText }

    /// Redacted: join codes are secrets.
    public var description: String { "JoinCode(redacted)" }
    /// Redacted: join codes are secrets.
    public var debugDescription: String { description }
}
