import KithInvites
import Testing

/// Keccak-256 against published Ethereum values.
struct Keccak256Tests {
    @Test func emptyAndAbc() {
        #expect(hexString(Keccak256.hash([UInt8]())) == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        #expect(hexString(Keccak256.hash(Array("abc".utf8)))
            == "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
    }

    @Test func multiBlockAndRateBoundaries() {
        // Cross-checked with pycryptodome's keccak (200 bytes: two blocks).
        #expect(hexString(Keccak256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 200)))
            == "96ea54061def936c4be90b518992fdc6f12f535068a256229aca54267b4d084d")
        // 135, 136 and 137 bytes straddle the 136-byte rate: distinct, deterministic digests.
        let digests = [135, 136, 137].map { Keccak256.hash([UInt8](repeating: 0, count: $0)) }
        #expect(Set(digests.map(hexString)).count == 3)
    }

    @Test func ethereumAddresses() throws {
        // Private key 1: the well-known address 0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf.
        let one = try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1])
        #expect(hexString(one.publicKey.address) == "7e5f4552091a69125d5dfcb7b8c2659029395bdf")
        // web3.js documentation's example key: 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23.
        let example = try InviteSigningKey(
            rawRepresentation: hex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"))
        #expect(hexString(example.publicKey.address) == "2c7536e3605d9c16a7a3d7b1898e529396a65c23")
    }
}
