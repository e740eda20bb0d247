import Foundation
import KithAccountFixtures
import KithContinuity
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// After the rebuild (docs/CONTINUITY.md, "After the rebuild"): the new home restores the latest backup with the key
/// the guardian set carried, publishes a `device_migration` rotation contacts verify, and without a backup waits to
/// learn its own feed before it appends anything.
@Suite struct RecoveryMoveTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kith-recovery-move-\(name)-\(UUID().uuidString)")
    }

    /// Alice posted, made Bob and Carol her guardians (2 of 2, carrying `backupKey` when given) and they hold their
    /// shares; `backup` is then written under `backupKey`.
    static func aliceReady(backupKey: RecoveryKey?, backup: URL) async throws -> (alice: Account, guardians: [Account]) {
        let (alice, people) = try await RecoveryAccountTests.people()
        let guardians = Array(people.prefix(2))
        try await alice.publishing.post("before the loss", audience: .contacts)
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID), backupKey: backupKey)
        for guardian in guardians { try await RecoveryAccountTests.deliver(alice, to: guardian) }
        _ = try await alice.backup(to: backup, secret: .recoveryKey(backupKey ?? RecoveryKey.generate()))
        return (alice, guardians)
    }

    /// A new device asks both guardians and rebuilds Alice.
    static func rebuild(_ alice: Account, with guardians: [Account]) async throws -> RecoveredIdentity {
        let newDevice = try MetAccounts.account(0x77)
        let request = try await newDevice.recovery.makeRequest(for: alice.feedID)
        var releases: [RecoveryRelease] = []
        for guardian in guardians { releases.append(try await guardian.recovery.release(for: alice.feedID, request: request)) }
        return try await newDevice.recovery.rebuild(from: releases)
    }

    static func continuityError(_ error: KithError?) -> ContinuityError? {
        if case .continuity(let underlying)? = error { return underlying }
        return nil
    }

    @Test func theCarriedBackupKeyRestoresTheBackupAndContactsSeeAVerifiedMove() async throws {
        let backupKey = RecoveryKey.generate()
        let file = Self.temporary("file")
        let (alice, guardians) = try await Self.aliceReady(backupKey: backupKey, backup: file)
        let bob = guardians[0]
        let recovered = try await Self.rebuild(alice, with: guardians)
        #expect(recovered.backupKey == backupKey)

        let home = AccountHome(directory: Self.temporary("home"))
        let move = try await Account.Recovery.move(recovered, into: home, backup: file, scrypt: .testing, passphrase: { "p" },
                                                   clock: { MetAccounts.now + 60 })
        #expect(move.rotated && move.restore != nil)
        #expect(move.account.feedID == alice.feedID && !move.account.isAwaitingHeadAfterRestore)
        #expect(move.account.identity.publicKeys.identityKeyString != alice.identity.publicKeys.identityKeyString)
        try await move.account.publishing.post("from the new phone", audience: .contacts)

        // Bob syncs the moved feed: a verified device_migration, the next post readable, no fork.
        _ = try await bob.feed.importFromContact(lines: try await move.account.feed.export(), contact: alice.feedID)
        let rotations = try await bob.rotation.records(feed: alice.feedID)
        #expect(rotations.count == 1 && rotations.first?.verified == true && rotations.first?.reason == "device_migration")
        #expect(rotations.first?.newIdentityKey == move.account.identity.publicKeys.identityKeyString)
        let bodies = try await bob.feed.timeline(feed: alice.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
        #expect(bodies.contains("from the new phone") && bodies.contains("before the loss"))
        #expect(try bob.store.forkEvidence(feed: alice.feedID).isEmpty)
    }

    @Test func withoutACarriedKeyTheBackupNeedsItsSecretAndAnotherIdentitysBackupIsRefused() async throws {
        let file = Self.temporary("file")
        let (alice, guardians) = try await Self.aliceReady(backupKey: nil, backup: file)
        let recovered = try await Self.rebuild(alice, with: guardians)
        #expect(recovered.backupKey == nil)
        let home = AccountHome(directory: Self.temporary("home"))
        let missing = await #expect(throws: KithError.self) {
            _ = try await Account.Recovery.move(recovered, into: home, backup: file, scrypt: .testing, passphrase: { "p" })
        }
        guard case .input? = missing else { Issue.record("unexpected \(String(describing: missing))"); return }
        #expect(!FileManager.default.fileExists(atPath: home.vaultURL.path))

        let bobsKey = RecoveryKey.generate()
        let bobsBackup = Self.temporary("bob")
        _ = try await guardians[0].backup(to: bobsBackup, secret: .recoveryKey(bobsKey))
        let other = await #expect(throws: KithError.self) {
            _ = try await Account.Recovery.move(recovered, into: home, backup: bobsBackup, backupSecret: .recoveryKey(bobsKey),
                                                scrypt: .testing, passphrase: { "p" })
        }
        guard case .otherIdentity? = Self.continuityError(other) else { Issue.record("unexpected \(String(describing: other))"); return }

        let move = try await Account.Recovery.move(recovered, into: home, backup: nil, rotate: true, scrypt: .testing, passphrase: { "p" })
        #expect(!move.rotated && move.restore == nil)
    }

    @Test func withoutABackupTheRebuiltHomeNeitherPostsNorRotatesBeforeItLearnsItsFeed() async throws {
        let file = Self.temporary("file")
        let (alice, guardians) = try await Self.aliceReady(backupKey: nil, backup: file)
        let bob = guardians[0]
        let recovered = try await Self.rebuild(alice, with: guardians)
        let home = AccountHome(directory: Self.temporary("home"))
        let move = try await Account.Recovery.move(recovered, into: home, rotate: false, scrypt: .testing, passphrase: { "p" },
                                                   clock: { MetAccounts.now + 60 })
        let account = move.account
        #expect(account.isAwaitingHeadAfterRestore && !move.rotated)
        let post = await #expect(throws: KithError.self) { try await account.publishing.post("too early", audience: .contacts) }
        #expect(Self.continuityError(post) == .recoveredHeadUnknown)
        // A rotation now would take sequence 1, which the lost device already used.
        let rotation = await #expect(throws: KithError.self) { try await account.rotation.rotate(reason: .deviceMigration) }
        #expect(Self.continuityError(rotation) == .recoveredHeadUnknown)

        // The person adds Bob's card again (the rotation is sealed to the contacts known when it is published) and Bob
        // hands the feed back (as a sync would); with rotate: false nothing is published by itself.
        try await account.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        _ = try await account.feed.importKnown(lines: try await alice.feed.export())
        #expect(try await !account.recovery.completeMove())
        try await account.rotation.rotate(reason: .deviceMigration)
        #expect(!account.isAwaitingHeadAfterRestore)
        try await account.publishing.post("back", audience: .contacts)
        let report = try await bob.feed.importFromContact(lines: try await account.feed.export(), contact: alice.feedID)
        #expect(report.outcomes.allSatisfy { if case .rejected = $0 { false } else { true } })
        #expect(try await bob.rotation.records(feed: alice.feedID).map(\.verified) == [true])
        #expect(try bob.store.forkEvidence(feed: alice.feedID).isEmpty)
    }

    @Test func withoutABackupTheSyncThatBringsTheFeedBackPublishesTheVerifiedMove() async throws {
        let file = Self.temporary("file")
        let (alice, guardians) = try await Self.aliceReady(backupKey: nil, backup: file)
        let bob = guardians[0]
        let recovered = try await Self.rebuild(alice, with: guardians)
        let move = try await Account.Recovery.move(recovered, into: AccountHome(directory: Self.temporary("home")),
                                                   scrypt: .testing, passphrase: { "p" }, clock: { MetAccounts.now + 60 })
        let account = move.account
        try await account.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        #expect(try await !account.recovery.completeMove())  // nothing of the feed is known yet
        let oldKey = account.identity.publicKeys.identityKeyString

        _ = await SyncPair.session(account, bob)
        #expect(!account.isAwaitingHeadAfterRestore)
        #expect(account.identity.publicKeys.identityKeyString != oldKey)
        #expect(try await !account.recovery.completeMove())  // once only
        try await account.publishing.post("back through a sync", audience: .contacts)

        // Bob, who has not seen the move, syncs with the new device directly: during the rotation grace it presents its
        // previous dh key, the one Bob knows (docs/sync.md, "After a key rotation").
        let direct = await SyncPair.session(bob, account)
        #expect(direct.alice.completed && direct.bob.completed)
        let rotations = try await bob.rotation.records(feed: alice.feedID)
        #expect(rotations.map(\.verified) == [true] && rotations.first?.reason == "device_migration")
        let bodies = try await bob.feed.timeline(feed: alice.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
        #expect(bodies.contains("back through a sync"))
        #expect(try bob.store.forkEvidence(feed: alice.feedID).isEmpty)
    }

    @Test func aSetIsStaleOnceTheKeysRotate() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let set = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        #expect(set.identityKey == alice.identity.publicKeys.identityKeyString && !set.carriesBackupKey)
        #expect(try await !alice.recovery.isStale(set))
        try await alice.rotation.rotate(reason: .scheduledRotation)
        #expect(try await alice.recovery.isStale(set))
        let again = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        #expect(try await !alice.recovery.isStale(again))
    }
}

/// The recovery secret payload: version 0x02 carries an optional backup key, version 0x01 is still read.
@Suite struct RecoverySecretPayloadTests {
    static let seed: Seed = { (try? Seed(bytes: [UInt8](repeating: 0x5A, count: 32))) ?? Seed.generate() }()

    @Test func versionTwoCarriesTheBackupKeyAndVersionOneIsStillRead() throws {
        let key = RecoveryKey.generate()
        let withKey = RecoverySecretPayload.encode(deviceSeed: Self.seed, keySeeds: nil, backupKey: key)
        #expect(withKey.first == 0x02 && withKey.count == 1 + 32 + 1 + 1 + 32)
        #expect(try RecoverySecretPayload.decode(withKey).backupKey == key)
        let without = RecoverySecretPayload.encode(deviceSeed: Self.seed, keySeeds: nil)
        #expect(try RecoverySecretPayload.decode(without).backupKey == nil)

        // A version 0x01 secret (no backup key field), as sets made before version 0x02 hold.
        let versionOne: [UInt8] = [0x01] + [UInt8](repeating: 0x5A, count: 32) + [0x00]
        let decoded = try RecoverySecretPayload.decode(versionOne)
        #expect(decoded.backupKey == nil && decoded.keySeeds == nil)
        #expect(decoded.deviceSeed.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0x5A, count: 32))

        let seeds = RotatedKeySeeds(current: Seed.generate(), previous: nil, older: [])
        let rotated = RecoverySecretPayload.encode(deviceSeed: Self.seed, keySeeds: seeds, backupKey: key)
        #expect(rotated.count <= RecoverySecretPayload.maxBytes && rotated.count <= RecoveryLimits.maxSecretBytes)
        let current = try RecoverySecretPayload.decode(rotated).keySeeds?.current
        #expect(current?.withUnsafeBytes { Array($0) } == seeds.current.withUnsafeBytes { Array($0) })
    }

    @Test func malformedPayloadsAreRefused() {
        let base: [UInt8] = [0x02] + [UInt8](repeating: 0x5A, count: 32) + [0x00]
        for bad in [base, base + [0x02], base + [0x01, 0x01], base + [0x00, 0x00], [0x01] + Array(base.dropFirst()) + [0x00],
                    [0x03] + Array(base.dropFirst()) + [0x00]] {
            #expect(throws: KithError.self) { _ = try RecoverySecretPayload.decode(bad) }
        }
    }
}
