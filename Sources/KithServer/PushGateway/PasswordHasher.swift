import Crypto
import CryptoExtras
import KithCanonical

/// Account passwords as PBKDF2-HMAC-SHA256 records, `pbkdf2_sha256$<rounds>$<salt>$<hash>`
/// (base64url salt of 16 random bytes and 32-byte hash): never the password itself.
struct PasswordHasher: Sendable {
    /// Rounds for new records.
    let rounds: Int
    /// Records naming more rounds than this are refused (a corrupt row cannot stall the server).
    static let maximumRounds = 10_000_000

    /// A record of `password` with a fresh salt.
    func record(_ password: String) -> String? {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        guard let hash = Self.derive(password, salt: salt, rounds: rounds) else { return nil }
        return "pbkdf2_sha256$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// True when `password` matches `record` (hashes compared in constant time).
    func verify(_ password: String, record: String) -> Bool {
        let parts = record.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "pbkdf2_sha256", let rounds = Int(parts[1]), (1...Self.maximumRounds).contains(rounds),
              let salt = try? Base64URL.decode(String(parts[2])), let expected = try? Base64URL.decode(String(parts[3])),
              let hash = Self.derive(password, salt: salt, rounds: rounds) else { return false }
        return ConstantTime.equals(hash, expected)
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) -> [UInt8]? {
        guard let key = try? KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds) else { return nil }
        return key.withUnsafeBytes { Array($0) }
    }
}
