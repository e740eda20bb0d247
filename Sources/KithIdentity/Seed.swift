import Crypto
import Foundation

/// The 256-bit device seed from which every identity key is derived (spec 2.2).
///
/// The seed is the single secret of an identity. It never touches disk in plaintext:
/// persist it only through a ``KeyVault``.
public struct Seed: Sendable {
    /// The number of bytes in a seed.
    public static let byteCount = 32

    let key: SymmetricKey

    /// Draws a fresh seed from the system CSPRNG.
    public static func generate() -> Seed {
        Seed(key: SymmetricKey(size: .bits256))
    }

    /// Wraps existing seed bytes (for vault implementations and test vectors).
    /// - Throws: ``IdentityError/invalidSeedLength(_:)`` unless exactly 32 bytes are given.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws(IdentityError) {
        let count = bytes.withUnsafeBytes { $0.count }
        guard count == Seed.byteCount else { throw .invalidSeedLength(count) }
        key = SymmetricKey(data: bytes)
    }

    init(key: SymmetricKey) { self.key = key }

    /// Gives temporary access to the raw seed bytes (for a vault that must encrypt them).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try key.withUnsafeBytes(body)
    }
}
