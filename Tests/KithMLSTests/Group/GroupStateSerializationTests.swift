import Testing

@testable import KithMLS

/// `serializedState()` / `init(serializedState:configuration:)`: a restored member continues exactly like the original.
@Suite struct GroupStateSerializationTests {
    static let configuration = GroupConfiguration(clock: { nil })

    struct Person {
        let name: [UInt8]
        let signatureKeys: KeyPair

        init(_ name: String, suite: CipherSuite) {
            self.name = Array(name.utf8)
            signatureKeys = suite.signature.generateKeyPair()
        }

        func keyPackage(_ suite: CipherSuite) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
            try KeyPackage.generate(suite: suite, credential: .basic(identity: name), signatureKeys: signatureKeys, lifetime: Lifetime(notBefore: 0, notAfter: .max))
        }
    }

    /// Replaces a state by its restored copy, checking that the copy encodes to the same bytes.
    static func roundTrip(_ state: inout GroupState) throws {
        let bytes = try state.serializedState()
        let restored = try GroupState(serializedState: bytes, configuration: configuration)
        #expect(try restored.serializedState() == bytes)
        state = restored
    }

    @Test(arguments: [UInt16(1), 3])
    func restoredMembersContinueLikeTheOriginals(suiteID: UInt16) throws {
        let suite = try CipherSuite(rawValue: suiteID)
        let people = ["alice", "bob", "carol", "dave"].map { Person($0, suite: suite) }
        let packages = try people.map { try $0.keyPackage(suite) }
        var alice = try GroupState(creating: [0x42], keyPackage: packages[0].keyPackage, secrets: packages[0].secrets, configuration: Self.configuration)
        try Self.roundTrip(&alice)
        let added = try alice.commit(adding: [packages[1].keyPackage, packages[2].keyPackage], wireFormat: .privateMessage)
        var bob = try GroupState(welcome: try #require(added.welcome), keyPackage: packages[1].keyPackage, secrets: packages[1].secrets, configuration: Self.configuration)
        var carol = try GroupState(welcome: try #require(added.welcome), keyPackage: packages[2].keyPackage, secrets: packages[2].secrets, configuration: Self.configuration)
        alice = added.newState
        try Self.roundTrip(&alice)
        try Self.roundTrip(&bob)
        try Self.roundTrip(&carol)

        // Application messages out of order, with restores in between (skipped keys survive).
        let first = try bob.encryptApplication([1])
        let second = try bob.encryptApplication([2])
        try Self.roundTrip(&bob)
        #expect(try alice.handle(second) == .application(data: [2], sender: bob.ownLeaf))
        try Self.roundTrip(&alice)
        #expect(try alice.handle(first) == .application(data: [1], sender: bob.ownLeaf))
        // A consumed key stays consumed after a restore.
        try Self.roundTrip(&alice)
        #expect(throws: (any Error).self) { try alice.handle(first) }

        // An Update proposal kept pending across a restore, then committed.
        let update = try carol.proposeUpdate(wireFormat: .privateMessage)
        try Self.roundTrip(&carol)
        _ = try alice.handle(update)
        _ = try bob.handle(update)
        try Self.roundTrip(&alice)
        try Self.roundTrip(&bob)
        let late = try carol.encryptApplication([3])
        let commit = try alice.commit(adding: [packages[3].keyPackage], wireFormat: .privateMessage)
        alice = commit.newState
        try Self.roundTrip(&alice)
        #expect(try bob.handle(commit.message) == .newEpoch(2))
        #expect(try carol.handle(commit.message) == .newEpoch(2))
        try Self.roundTrip(&bob)
        try Self.roundTrip(&carol)
        #expect(bob.epochAuthenticator == alice.epochAuthenticator && carol.epochAuthenticator == alice.epochAuthenticator)
        // A message of the past epoch still opens after restores (retained epoch keys survive).
        #expect(try bob.handle(late) == .application(data: [3], sender: carol.ownLeaf))

        // Removal, after restores.
        let removal = try alice.commit(removing: [carol.ownLeaf], wireFormat: .privateMessage)
        alice = removal.newState
        try Self.roundTrip(&alice)
        #expect(try carol.handle(removal.message) == .removedFromGroup)
        #expect(try bob.handle(removal.message) == .newEpoch(3))
        try Self.roundTrip(&bob)
        let after = try alice.encryptApplication([4])
        #expect(try bob.handle(after) == .application(data: [4], sender: alice.ownLeaf))
    }

    @Test func damagedStatesAreRefusedWithoutCrashing() throws {
        let suite = try CipherSuite(rawValue: 1)
        let person = Person("alice", suite: suite)
        let package = try person.keyPackage(suite)
        var state = try GroupState(creating: [1], keyPackage: package.keyPackage, secrets: package.secrets, configuration: Self.configuration)
        _ = try state.encryptApplication([9])
        let bytes = try state.serializedState()
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try GroupState(serializedState: Array(bytes.prefix(length)), configuration: Self.configuration) }
        }
        #expect(throws: (any Error).self) { try GroupState(serializedState: bytes + [0], configuration: Self.configuration) }
        var wrongVersion = bytes
        wrongVersion[0] = 2
        #expect(throws: MLSCodecError.self) { try GroupState(serializedState: wrongVersion, configuration: Self.configuration) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var flipped = bytes
            flipped[Int.random(in: 0..<flipped.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            _ = try? GroupState(serializedState: flipped, configuration: Self.configuration)
        }
    }
}
