import Crypto
import CryptoExtras
import KithCanonical
import NIOPosix
import Synchronization

/// Account passwords as PBKDF2-HMAC-SHA256 records, `pbkdf2_sha256$<rounds>$<salt>$<hash>`
/// (base64url salt of 16 random bytes and 32-byte hash): never the password itself.
///
/// Hashing takes about 0.1 s of one core at the default rounds: it runs on NIO's blocking thread pool,
/// at most `maximumConcurrent` at once (running or queued); ``Busy`` beyond.
final class PasswordHasher: Sendable {
    /// Rounds for new records.
    let rounds: Int
    /// Hashes running or queued at once.
    let maximumConcurrent: Int
    private let inFlight = Atomic<Int>(0)
    /// Records naming more rounds than this are refused (a corrupt row cannot stall the server).
    static let maximumRounds = 10_000_000

    /// Too many hashes at once: retry shortly.
    struct Busy: Error {}

    init(rounds: Int, maximumConcurrent: Int) {
        self.rounds = rounds
        self.maximumConcurrent = maximumConcurrent
    }

    /// A record of `password` with a fresh salt, computed off the server's threads.
    func record(_ password: String) async throws(Busy) -> String? {
        try await offloaded { self.record(password) }
    }

    /// Whether `password` matches `record`, computed off the server's threads.
    func verify(_ password: String, record: String) async throws(Busy) -> Bool {
        try await offloaded { self.verify(password, record: record) }
    }

    private func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws(Busy) -> T {
        guard inFlight.add(1, ordering: .relaxed).newValue <= maximumConcurrent else {
            inFlight.subtract(1, ordering: .relaxed)
            throw Busy()
        }
        defer { inFlight.subtract(1, ordering: .relaxed) }
        do {
            return try await NIOThreadPool.singleton.runIfActive(work)
        } catch {
            throw Busy()
        }
    }

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
