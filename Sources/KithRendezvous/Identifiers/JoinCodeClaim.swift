import Crypto
import KithCanonical

/// A join code that only its maker can offer: the code commits to a secret, and `POST /api/rooms` creates a pairing
/// under it only with that secret as `claim` (docs/SERVER.md, "Claimed join codes").
///
/// An invite for strangers carries its join code for everyone to read; an ordinary code could be offered first by
/// anyone who read it, so joiners would pair with them. A claimed code is
///
/// ```
/// "kc1-" ‖ base64url(nonce, 12 bytes) ‖ base64url(SHA-256("Kith_JoinCodeClaim_v1" ‖ secret)[0..<24])   (52 characters)
/// ```
///
/// and its claim is `base64url(secret)` (32 bytes). The nonce is free for the maker's use (Kith derives the secret from
/// it and a key of its own, so nothing needs storing); the server reads only the commitment. Any code beginning
/// `kc1-` is held to this rule.
public enum JoinCodeClaim {
    /// The prefix every claimed code starts with.
    public static let prefix = "kc1-"
    /// Bytes of the nonce.
    public static let nonceBytes = 12
    /// Bytes of a secret.
    public static let secretBytes = 32
    /// Bytes of the commitment kept in the code (192 bits: finding a secret for it is a second-preimage search).
    static let commitmentBytes = 24
    private static let domain = Array("Kith_JoinCodeClaim_v1".utf8)

    /// The claimed code of `secret`, with `nonce` in it; nil unless both have their sizes.
    public static func code(nonce: [UInt8], secret: [UInt8]) -> JoinCode? {
        guard nonce.count == nonceBytes, secret.count == secretBytes else { return nil }
        return JoinCode(prefix + Base64URL.encode(nonce) + Base64URL.encode(commitment(to: secret)))
    }

    /// True when the server must see a claim before creating a pairing under `code`.
    public static func isClaimed(_ code: JoinCode) -> Bool { code.text.hasPrefix(prefix) }

    /// The nonce of a well-formed claimed code.
    public static func nonce(of code: JoinCode) -> [UInt8]? {
        guard let parts = parts(of: code) else { return nil }
        return parts.nonce
    }

    /// The `claim` member proving `secret`.
    public static func claim(of secret: [UInt8]) -> String { Base64URL.encode(secret) }

    /// True when `claim` is the secret `code` commits to (compared in constant time); false for a malformed code or claim.
    public static func verifies(claim: String, for code: JoinCode) -> Bool {
        guard let parts = parts(of: code),
              let secret = try? Base64URL.decode(claim, expectedLength: secretBytes) else { return false }
        return ConstantTime.equals(commitment(to: secret), parts.commitment)
    }

    private static func commitment(to secret: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: domain + secret).prefix(commitmentBytes))
    }

    private static func parts(of code: JoinCode) -> (nonce: [UInt8], commitment: [UInt8])? {
        let text = Array(code.text.utf8)
        let prefixLength = prefix.utf8.count
        let nonceLength = Base64URL.encodedLength(of: nonceBytes)
        guard text.count == prefixLength + nonceLength + Base64URL.encodedLength(of: commitmentBytes), isClaimed(code),
              let nonce = try? Base64URL.decode(utf8: Array(text[prefixLength..<(prefixLength + nonceLength)]), expectedLength: nonceBytes),
              let commitment = try? Base64URL.decode(utf8: Array(text[(prefixLength + nonceLength)...]), expectedLength: commitmentBytes)
        else { return nil }
        return (nonce, commitment)
    }
}
