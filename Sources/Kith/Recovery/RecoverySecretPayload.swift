import KithCanonical
import KithContinuity
import KithIdentity

/// The bytes an identity splits among its guardians: what a new device needs to rebuild it.
///
///     version u8 = 0x01 | device seed 32 | count u8 (0 never rotated, else 1 + retired generations, at most 4)
///     | count x (kind u8 (0 the device seed's generation, 1 a seed) | [seed 32])   current first, then newest first
///
/// At most 1 + 32 + 1 + 4 x 33 = 166 bytes (`RecoveryLimits.maxSecretBytes` is 256).
enum RecoverySecretPayload {
    static let version: UInt8 = 0x01

    static func encode(deviceSeed: Seed, keySeeds: RotatedKeySeeds?) -> [UInt8] {
        var writer = ByteWriter(capacity: 166)
        writer.write(version)
        deviceSeed.withUnsafeBytes { writer.write(bytes: $0) }
        guard let keySeeds else {
            writer.write(UInt8(0))
            return writer.bytes
        }
        let generations: [Seed?] = [keySeeds.current, keySeeds.previous] + keySeeds.older
        writer.write(UInt8(generations.count))
        for seed in generations {
            if let seed {
                writer.write(UInt8(1))
                seed.withUnsafeBytes { writer.write(bytes: $0) }
            } else {
                writer.write(UInt8(0))
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(KithError) -> (deviceSeed: Seed, keySeeds: RotatedKeySeeds?) {
        var reader = ByteReader(bytes)
        do {
            guard try reader.readUInt8() == version else { throw KithError.recovery(.malformed(kind: "secret", reason: "unknown version")) }
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
            try reader.expectEnd()
            guard let first = generations.first else { return (deviceSeed, nil) }
            guard let current = first else { throw KithError.recovery(.malformed(kind: "secret", reason: "no current key seed")) }
            let retired = Array(generations.dropFirst())
            return (deviceSeed, RotatedKeySeeds(current: current, previous: retired.first ?? nil, older: Array(retired.dropFirst())))
        } catch let error as KithError {
            throw error
        } catch {
            throw .recovery(.malformed(kind: "secret", reason: "\(error)"))
        }
    }
}
