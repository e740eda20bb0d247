import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithIdentity

/// The retired key generations kept after rotations (docs/FEED-FORMAT.md 13, "Retired generations").
@Suite struct RotatedKeySeedsTests {
    static func bytes(_ seed: Seed?) -> [UInt8]? {
        seed.map { $0.withUnsafeBytes { Array($0) } }
    }

    static func pqKey(_ generation: KeyGeneration) -> [UInt8] {
        Array(generation.pqKey.publicKey.rawRepresentation)
    }

    static func pqKey(_ identity: Identity) -> [UInt8] {
        Array(identity.pqKey.publicKey.rawRepresentation)
    }

    @Test func rotationsKeepTheLastThreeRetiredGenerationsNewestFirst() throws {
        let device = Seed.generate()
        let fresh = (0..<5).map { _ in Seed.generate() }
        var seeds: RotatedKeySeeds?
        var identities = [try Identity(seed: device)]
        for seed in fresh {
            seeds = RotatedKeySeeds.rotating(seeds, to: seed)
            identities.insert(try Identity(seed: device, keySeeds: seeds), at: 0)
        }
        let last = try #require(seeds)
        #expect(Self.bytes(last.current) == Self.bytes(fresh[4]))
        #expect(Self.bytes(last.previous) == Self.bytes(fresh[3]))
        #expect(last.older.map(Self.bytes) == [Self.bytes(fresh[2]), Self.bytes(fresh[1])])
        // Each identity's retired generations are the previous identities' current keys, at most three.
        for (index, identity) in identities.enumerated() {
            let expected = identities[(index + 1)...].prefix(RotatedKeySeeds.maxRetiredGenerations).map { Self.pqKey($0) }
            #expect(identity.retiredGenerations.map(Self.pqKey) == expected)
        }
        // After three rotations the device seed's generation is the third retired one; after four it is gone.
        #expect(identities[2].retiredGenerations.count == 3)
        #expect(identities[2].retiredGenerations.last.map(Self.pqKey) == Self.pqKey(identities[5]))
    }

    @Test func sealedSeedsRoundTripWithTheDeviceSeedsGeneration() throws {
        let device = Seed.generate()
        let seeds = RotatedKeySeeds(current: Seed.generate(), previous: Seed.generate(), older: [nil])
        let opened = try RotatedKeySeeds.open(try seeds.sealed(deviceSeed: device), deviceSeed: device, path: "x")
        #expect(Self.bytes(opened.current) == Self.bytes(seeds.current))
        #expect(Self.bytes(opened.previous) == Self.bytes(seeds.previous))
        #expect(opened.older.count == 1 && opened.older[0] == nil)
    }

    @Test func versionOneFilesStillOpen() throws {
        let device = Seed.generate()
        let current = Seed.generate(), previous = Seed.generate()
        var plaintext: [UInt8] = [0x01, 2]
        plaintext += Self.bytes(current)! + Self.bytes(previous)!
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: device)
        let sealed = Array(try ChaChaPoly.seal(plaintext, using: key, authenticating: RotatedKeySeeds.associatedData).combined)
        let opened = try RotatedKeySeeds.open(sealed, deviceSeed: device, path: "x")
        #expect(Self.bytes(opened.current) == Self.bytes(current))
        #expect(Self.bytes(opened.previous) == Self.bytes(previous))
        #expect(opened.older.isEmpty)
    }

    @Test func malformedRetiredListsAreRefused() throws {
        let device = Seed.generate()
        let key = KeyDerivation.derive(KeyDerivation.keySeedsKey, from: device)
        let current = Self.bytes(Seed.generate())!
        let version: [UInt8] = [0x02]
        let cases: [[UInt8]] = [
            version + current + [0],               // no retired generation
            version + current + [4, 0, 0, 0, 0],   // more than three
            version + current + [1, 2],            // unknown kind
            version + current + [1, 1, 7],         // truncated seed
            version + current + [1, 0, 0],         // trailing byte
            [0x03] + current + [1, 0],            // unknown version
        ]
        for plaintext in cases {
            let sealed = Array(try ChaChaPoly.seal(plaintext, using: key, authenticating: RotatedKeySeeds.associatedData).combined)
            #expect(throws: IdentityError.self) { try RotatedKeySeeds.open(sealed, deviceSeed: device, path: "x") }
        }
    }
}
