/// Keccak-256 as Ethereum uses it: the Keccak-f[1600] sponge, rate 136 bytes, original `0x01` padding
/// (not SHA3-256's `0x06`).
///
/// Only for the invite binding: an Ethereum-style address is the last 20 bytes of the Keccak-256 of a public key.
public enum Keccak256 {
    /// The digest length in bytes.
    public static let digestBytes = 32

    private static let rate = 136

    private static let roundConstants: [UInt64] = [
        0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A, 0x8000_0000_8000_8000,
        0x0000_0000_0000_808B, 0x0000_0000_8000_0001, 0x8000_0000_8000_8081, 0x8000_0000_0000_8009,
        0x0000_0000_0000_008A, 0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
        0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089, 0x8000_0000_0000_8003,
        0x8000_0000_0000_8002, 0x8000_0000_0000_0080, 0x0000_0000_0000_800A, 0x8000_0000_8000_000A,
        0x8000_0000_8000_8081, 0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
    ]

    /// Rotation offsets, indexed by lane `x + 5y`.
    private static let rotations: [UInt64] = [
        0, 1, 62, 28, 27,
        36, 44, 6, 55, 20,
        3, 10, 43, 25, 39,
        41, 45, 15, 21, 8,
        18, 2, 61, 56, 14,
    ]

    /// The 32-byte Keccak-256 digest of `message`.
    public static func hash<Bytes: Sequence>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var padded = Array(message)
        let messageLength = padded.count
        let padLength = rate - messageLength % rate
        padded += [UInt8](repeating: 0, count: padLength)
        padded[messageLength] ^= 0x01
        padded[padded.count - 1] ^= 0x80

        var state = [UInt64](repeating: 0, count: 25)
        var blockStart = 0
        while blockStart < padded.count {
            for lane in 0..<(rate / 8) {
                var word: UInt64 = 0
                for byte in 0..<8 {
                    word |= UInt64(padded[blockStart + lane * 8 + byte]) << (8 * UInt64(byte))
                }
                state[lane] ^= word
            }
            permute(&state)
            blockStart += rate
        }

        var digest: [UInt8] = []
        digest.reserveCapacity(digestBytes)
        for lane in 0..<(digestBytes / 8) {
            for byte in 0..<8 {
                digest.append(UInt8(truncatingIfNeeded: state[lane] >> (8 * UInt64(byte))))
            }
        }
        return digest
    }

    private static func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        count == 0 ? value : (value << count) | (value >> (64 - count))
    }

    /// Keccak-f[1600]: 24 rounds of θ, ρ, π, χ, ι.
    private static func permute(_ state: inout [UInt64]) {
        var columns = [UInt64](repeating: 0, count: 5)
        var moved = [UInt64](repeating: 0, count: 25)
        for round in 0..<24 {
            for x in 0..<5 {
                columns[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]
            }
            for x in 0..<5 {
                let mix = columns[(x + 4) % 5] ^ rotateLeft(columns[(x + 1) % 5], 1)
                for y in 0..<5 { state[x + 5 * y] ^= mix }
            }
            for x in 0..<5 {
                for y in 0..<5 {
                    // π: lane (x, y) moves to (y, 2x + 3y).
                    moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft(state[x + 5 * y], rotations[x + 5 * y])
                }
            }
            for y in 0..<5 {
                for x in 0..<5 {
                    state[x + 5 * y] = moved[x + 5 * y] ^ (~moved[(x + 1) % 5 + 5 * y] & moved[(x + 2) % 5 + 5 * y])
                }
            }
            state[0] ^= roundConstants[round]
        }
    }
}
