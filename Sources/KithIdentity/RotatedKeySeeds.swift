import Crypto
import Foundation
import KithCanonical

/// The seeds of the announced keys after a key rotation (spec 5.5), sealed under a key derived
/// from the device seed (so opening them needs no second passphrase prompt).
///
/// Besides the current generation, the last ``maxRetiredGenerations`` generations are kept
/// (``previous`` and ``older``): direct messages a contact wrote before seeing the rotations
/// still target their keys (docs/FEED-FORMAT.md 12.9). A generation's seed is erased by the
/// rotation that makes it the fourth retired one.
///
/// File form (`keys.sealed` in the home):
///
///     ChaCha20-Poly1305(key = HKDF(device seed, KeyDerivation.keySeedsKey), random nonce,
///                       aad = "Kith_KeySeeds_v1")
///     combined = nonce 12 | ciphertext | tag 16
///     plaintext v2 = version u8 = 0x02 | current seed 32 | count u8 (1 ... 3)
///                    | count x (kind u8 (0 the device seed's generation, 1 a seed) | [seed 32]), newest first
///     plaintext v1 = version u8 = 0x01 | count u8 (1 or 2) | current seed 32 | [previous seed 32]   (read only)
public struct RotatedKeySeeds: Sendable {
    /// The format version written.
    public static let version: UInt8 = 0x02
    /// Most retired generations kept (``previous`` plus ``older``).
    public static let maxRetiredGenerations = 3
    static let associatedData = Array("Kith_KeySeeds_v1".utf8)
    static let maxPlaintextSize = 2 + 32 + maxRetiredGenerations * 33

    /// The seed of the current announced keys.
    public let current: Seed
    /// The seed of the previous generation (nil: the previous keys were the device seed's).
    public let previous: Seed?
    /// The generations before ``previous``, newest first (nil: the device seed's generation);
    /// at most ``maxRetiredGenerations`` - 1.
    public let older: [Seed?]

    /// Bundles the seeds; `older` beyond the bound is dropped (oldest first).
    public init(current: Seed, previous: Seed?, older: [Seed?] = []) {
        self.current = current
        self.previous = previous
        self.older = Array(older.prefix(Self.maxRetiredGenerations - 1))
    }

    /// The seeds after rotating from `seeds` (nil: never rotated, the device seed's keys are
    /// current) to `newSeed`: the current generation becomes the previous one, and the oldest
    /// retired generation beyond the bound is dropped.
    public static func rotating(_ seeds: RotatedKeySeeds?, to newSeed: Seed) -> RotatedKeySeeds {
        guard let seeds else { return RotatedKeySeeds(current: newSeed, previous: nil) }
        return RotatedKeySeeds(current: newSeed, previous: seeds.current, older: [seeds.previous] + seeds.older)
    }

    /// The sealed bytes for the file.
    public func sealed(deviceSeed: Seed) throws(IdentityError) -> [UInt8] {
        var writer = ByteWriter(capacity: Self.maxPlaintextSize)
        writer.write(Self.version)
        current.withUnsafeBytes { writer.write(bytes: $0) }
        let retired = [previous] + older
        writer.write(UInt8(retired.count))
        for seed in retired {
            if let seed {
                writer.write(UInt8(1))
                seed.withUnsafeBytes { writer.write(bytes: $0) }
            } else {
                writer.write(UInt8(0))
            }
        }
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: deviceSeed)
        do {
            return Array(try ChaChaPoly.seal(writer.bytes, using: key, authenticating: Self.associatedData).combined)
        } catch {
            throw .keyDerivationFailed("sealing rotated key seeds: \(error)")
        }
    }

    /// Opens sealed bytes (version 2, or version 1 written before older generations were kept).
    ///
    /// - Throws: ``IdentityError/vaultCorrupt(path:reason:)`` when they do not open with this
    ///   device seed or are malformed.
    public static func open(_ sealed: [UInt8], deviceSeed: Seed, path: String) throws(IdentityError) -> RotatedKeySeeds {
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: deviceSeed)
        guard sealed.count <= 12 + maxPlaintextSize + 16,
              let box = try? ChaChaPoly.SealedBox(combined: sealed),
              let plain = try? ChaChaPoly.open(box, using: key, authenticating: associatedData) else {
            throw .vaultCorrupt(path: path, reason: "the rotated key seeds do not open with this identity")
        }
        var reader = ByteReader(Array(plain))
        do {
            let seeds: RotatedKeySeeds
            switch try reader.readUInt8() {
            case 0x01: seeds = try readVersion1(&reader, path: path)
            case 0x02: seeds = try readVersion2(&reader, path: path)
            default: throw IdentityError.vaultCorrupt(path: path, reason: "unknown key seeds version")
            }
            try reader.expectEnd()
            return seeds
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .vaultCorrupt(path: path, reason: "malformed key seeds: \(error)")
        }
    }

    private static func readVersion1(_ reader: inout ByteReader, path: String) throws -> RotatedKeySeeds {
        let count = try reader.readUInt8()
        guard count == 1 || count == 2 else { throw IdentityError.vaultCorrupt(path: path, reason: "key seeds count \(count)") }
        let current = try Seed(bytes: try reader.readBytes(32))
        let previous = count == 2 ? try Seed(bytes: try reader.readBytes(32)) : nil
        return RotatedKeySeeds(current: current, previous: previous)
    }

    private static func readVersion2(_ reader: inout ByteReader, path: String) throws -> RotatedKeySeeds {
        let current = try Seed(bytes: try reader.readBytes(32))
        let count = Int(try reader.readUInt8())
        guard (1...maxRetiredGenerations).contains(count) else {
            throw IdentityError.vaultCorrupt(path: path, reason: "retired key seeds count \(count)")
        }
        var retired: [Seed?] = []
        for _ in 0..<count {
            switch try reader.readUInt8() {
            case 0: retired.append(nil)
            case 1: retired.append(try Seed(bytes: try reader.readBytes(32)))
            default: throw IdentityError.vaultCorrupt(path: path, reason: "unknown retired key seed kind")
            }
        }
        return RotatedKeySeeds(current: current, previous: retired[0], older: Array(retired.dropFirst()))
    }
}
