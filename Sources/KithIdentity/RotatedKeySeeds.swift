import Crypto
import Foundation
import KithCanonical

/// The seeds of the announced keys after a key rotation (spec 5.5), sealed under a key derived
/// from the device seed (so opening them needs no second passphrase prompt).
///
/// File form (`keys.sealed` in the home):
///
///     ChaCha20-Poly1305(key = HKDF(device seed, KeyDerivation.keySeedsKey), random nonce,
///                       aad = "Kith_KeySeeds_v1")
///     combined = nonce 12 | ciphertext | tag 16
///     plaintext = version u8 = 0x01 | count u8 (1 or 2) | current seed 32 | [previous seed 32]
public struct RotatedKeySeeds: Sendable {
    /// The format version.
    public static let version: UInt8 = 0x01
    static let associatedData = Array("Kith_KeySeeds_v1".utf8)

    /// The seed of the current announced keys.
    public let current: Seed
    /// The seed of the previous generation (nil: the previous keys were the device seed's).
    public let previous: Seed?

    /// Bundles the seeds.
    public init(current: Seed, previous: Seed?) {
        self.current = current
        self.previous = previous
    }

    /// The sealed bytes for the file.
    public func sealed(deviceSeed: Seed) throws(IdentityError) -> [UInt8] {
        var writer = ByteWriter(capacity: 66)
        writer.write(Self.version)
        writer.write(UInt8(previous == nil ? 1 : 2))
        current.withUnsafeBytes { writer.write(bytes: $0) }
        previous?.withUnsafeBytes { writer.write(bytes: $0) }
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: deviceSeed)
        do {
            return Array(try ChaChaPoly.seal(writer.bytes, using: key, authenticating: Self.associatedData).combined)
        } catch {
            throw .keyDerivationFailed("sealing rotated key seeds: \(error)")
        }
    }

    /// Opens sealed bytes.
    ///
    /// - Throws: ``IdentityError/vaultCorrupt(path:reason:)`` when they do not open with this
    ///   device seed or are malformed.
    public static func open(_ sealed: [UInt8], deviceSeed: Seed, path: String) throws(IdentityError) -> RotatedKeySeeds {
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: deviceSeed)
        guard sealed.count <= 12 + 66 + 16,
              let box = try? ChaChaPoly.SealedBox(combined: sealed),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: associatedData) else {
            throw .vaultCorrupt(path: path, reason: "the rotated key seeds do not open with this identity")
        }
        var reader = ByteReader(Array(plain))
        do {
            guard try reader.readUInt8() == version else { throw IdentityError.vaultCorrupt(path: path, reason: "unknown key seeds version") }
            let count = try reader.readUInt8()
            guard count == 1 || count == 2 else { throw IdentityError.vaultCorrupt(path: path, reason: "key seeds count \(count)") }
            let current = try Seed(bytes: try reader.readBytes(32))
            let previous = count == 2 ? try Seed(bytes: try reader.readBytes(32)) : nil
            try reader.expectEnd()
            return RotatedKeySeeds(current: current, previous: previous)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .vaultCorrupt(path: path, reason: "malformed key seeds: \(error)")
        }
    }
}
