import Crypto
import KithCanonical
import KithPush

/// How the gateway gives an owner their whitelist tokens back without storing them.
///
/// A token is `HMAC-SHA256(API token, "kith push whitelist token v1" ‖ nonce)` cut to 20 bytes, with a fresh 16-byte
/// random nonce per token. The store keeps the nonce and the token's SHA-256 digest, never the token or the API token
/// (only its digest): a copy of the database reveals no token, while a request that presents the owner's API token
/// lets the gateway derive each token again for the owner's list. A token derived under an earlier API token (the
/// owner logged in again since) no longer derives to its digest; the list names it by digest only (docs/PUSH.md).
enum PushTokenDerivation {
    /// Bytes of random nonce per token.
    static let nonceBytes = 16
    private static let label = Array("kith push whitelist token v1".utf8)

    /// A fresh nonce from the system's secure generator.
    static func nonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<nonceBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The token derived from `apiToken` and `nonce`.
    static func token(apiToken: WhitelistToken, nonce: [UInt8]) -> WhitelistToken {
        let mac = HMAC<SHA256>.authenticationCode(for: label + nonce, using: SymmetricKey(data: apiToken.bytes))
        guard let token = try? WhitelistToken(bytes: Array(Array(mac).prefix(PushLimits.whitelistTokenBytes))) else {
            preconditionFailure("HMAC-SHA256 gives 32 bytes, more than a whitelist token's 20")
        }
        return token
    }

    /// The token of `record` when it derives from `apiToken` to the stored digest; nil for a token stored before
    /// derivation or derived under an earlier API token.
    static func token(of record: PushTokenRecord, apiToken: WhitelistToken) -> WhitelistToken? {
        guard let nonce = record.derivationNonce else { return nil }
        let token = token(apiToken: apiToken, nonce: nonce)
        return ConstantTime.equals(token.storageDigest, record.digest) ? token : nil
    }
}
