import KithCanonical
import KithContinuity
import KithIdentity

/// The bytes an identity splits among its guardians: what a new device needs to rebuild it.
///
///     version u8 = 0x02 | device seed 32 | count u8 (0 never rotated, else 1 + retired generations, at most 4)
///     | count x (kind u8 (0 the device seed's generation, 1 a seed) | [seed 32])   current first, then newest first
///     | backup key u8 (0 none, 1 one follows) | [backup recovery key 32]
///
/// Version 0x01 is the same without the backup key field (still read). At most 1 + 32 + 1 + 4 x 33 + 33 = 199 bytes
/// (`RecoveryLimits.maxSecretBytes` is 256).
enum RecoverySecretPayload {
    /// The version written.
    static let version: UInt8 = 0x02
    /// The first version: no backup key field.
    static let versionWithoutBackupKey: UInt8 = 0x01
    /// The largest encoded payload.
    static let maxBytes = 1 + Seed.byteCount + 1 + (1 + RotatedKeySeeds.maxRetiredGenerations) * (1 + Seed.byteCount)
        + 1 + RecoveryKey.byteCount

    /// What a payload holds.
    struct Contents {
        let deviceSeed: Seed
        let keySeeds: RotatedKeySeeds?
        let backupKey: RecoveryKey?
    }

    static func encode(deviceSeed: Seed, keySeeds: RotatedKeySeeds?, backupKey: RecoveryKey? = nil) -> [UInt8] {
        var writer = ByteWriter(capacity: maxBytes)
        writer.write(version)
        deviceSeed.withUnsafeBytes { writer.write(bytes: $0) }
        let generations: [Seed?] = keySeeds.map { [$0.current, $0.previous] + $0.older } ?? []
        writer.write(UInt8(generations.count))
        for seed in generations {
            if let seed {
                writer.write(UInt8(1))
                seed.withUnsafeBytes { writer.write(bytes: $0) }
            } else {
                writer.write(UInt8(0))
            }
        }
        if let backupKey {
            writer.write(UInt8(1))
            writer.write(bytes: backupKey.bytes)
        } else {
            writer.write(UInt8(0))
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(KithError) -> Contents {
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == Self.version || version == versionWithoutBackupKey else {
                throw KithError.recovery(.malformed(kind: "secret", reason: "unknown version"))
            }
            let deviceSeed = try Seed(bytes: try reader.readBytes(Seed.byteCount))
            let count = Int(try reader.readUInt8())
            guard count <= 1 + RotatedKeySeeds.maxRetiredGenerations else {
                throw KithError.recovery(.malformed(kind: "secret", reason: "\(count) key generations"))
            }
            var generations: [Seed?] = []
            for _ in 0..<count {
                switch try reader.readUInt8() {
                case 0: generations.append(nil)
                case 1: generations.append(try Seed(bytes: try reader.readBytes(Seed.byteCount)))
                default: throw KithError.recovery(.malformed(kind: "secret", reason: "unknown key seed kind"))
                }
            }
            var backupKey: RecoveryKey?
            if version == Self.version {
                switch try reader.readUInt8() {
                case 0: break
                case 1: backupKey = try RecoveryKey(bytes: try reader.readBytes(RecoveryKey.byteCount))
                default: throw KithError.recovery(.malformed(kind: "secret", reason: "unknown backup key kind"))
                }
            }
            try reader.expectEnd()
            guard let first = generations.first else { return Contents(deviceSeed: deviceSeed, keySeeds: nil, backupKey: backupKey) }
            guard let current = first else { throw KithError.recovery(.malformed(kind: "secret", reason: "no current key seed")) }
            let retired = Array(generations.dropFirst())
            let keySeeds = RotatedKeySeeds(current: current, previous: retired.first ?? nil, older: Array(retired.dropFirst()))
            return Contents(deviceSeed: deviceSeed, keySeeds: keySeeds, backupKey: backupKey)
        } catch let error as KithError {
            throw error
        } catch {
            throw .recovery(.malformed(kind: "secret", reason: "\(error)"))
        }
    }
}
