import Crypto
import Foundation
import GRDB
import KithFeed
import Testing

@testable import KithStore

/// Group records, KeyPackages and the outbox in the store: sealed at rest, bounded, moved in one transaction.
@Suite struct GroupStoreAccessTests {
    static let group = String(repeating: "G", count: 43)
    static let peer = String(repeating: "P", count: 43)

    static func record(state: [UInt8]) -> GroupRecord {
        GroupRecord(groupID: group, name: "climbing", epoch: 3, state: state, status: .active, committer: peer, explodeAt: nil, createdAt: 1)
    }

    @Test func stateAndNameAreSealedAtRest() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        let secret = Array("SECRET-GROUP-STATE-0123456789".utf8)
        _ = try store.withGroupState { access in try access.save(Self.record(state: secret), members: [Self.peer]) }
        let raw = try store.database.read { db in try Row.fetchOne(db, sql: "SELECT mls_state_blob, group_name FROM mls_groups")! }
        let blob = Array(raw["mls_state_blob"] as Data)
        #expect(!String(decoding: blob, as: UTF8.self).contains("SECRET") && blob.first == 0x01 && blob.count == 1 + 12 + secret.count + 16)
        #expect(!(raw["group_name"] as String).contains("climbing"))
        let back = try store.readGroupState { access in try access.group(Self.group) }
        #expect(back?.state == secret && back?.name == "climbing" && back?.epoch == 3)
        #expect(try store.readGroupState { access in try access.members(of: Self.group) }.map(\.feedID) == [Self.peer])
    }

    @Test func aStateSealedForAnotherGroupDoesNotOpen() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        _ = try store.withGroupState { access in try access.save(Self.record(state: [1, 2, 3]), members: []) }
        // Moving a sealed blob to another group's row is detected (the seal is bound to the group id).
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO mls_groups(group_id, epoch, mls_state_blob, created_at) SELECT 'other', epoch, mls_state_blob, created_at FROM mls_groups")
        }
        #expect(throws: (any Error).self) { try store.readGroupState { access in try access.group("other") } }
    }

    /// A contact can name any group id in an `mls_group_tree` offer: what it can make this store keep is bounded.
    @Test func groupTreeOffersAreBoundedPerAuthorAndSealed() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        let hash = String(repeating: "h", count: 43)
        let key = String(repeating: "K", count: 43)
        try store.withGroupState { access in
            for index in 0..<50 {
                try access.keepGroupTree(GroupTreeOffer(groupID: "group-\(index)", blob: hash, key: key), from: Self.peer)
            }
            try access.keepGroupTree(GroupTreeOffer(groupID: "group-0", blob: hash, key: key), from: "someone-else")
        }
        let rows = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mls_group_trees WHERE author_feed_id = ?", arguments: [Self.peer]) }
        #expect(rows == GroupStoreAccess.maxGroupTreesPerAuthor)
        let newest = try store.readGroupState { access in try access.groupTree(of: "group-49", from: Self.peer) }
        #expect(newest?.key == key)
        #expect(try store.readGroupState { access in try access.groupTree(of: "group-0", from: Self.peer) } == nil)
        #expect(try store.readGroupState { access in try access.groupTree(of: "group-0", from: "someone-else") } != nil)
        let raw = try store.database.read { db in try String.fetchAll(db, sql: "SELECT key_sealed FROM mls_group_trees") }
        #expect(!raw.contains { $0.contains(key) })
    }

    @Test func peerKeyPackagesAreBoundedPerContactAndUsedOnce() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.withGroupState { access in
            for index in 0..<12 { try access.savePeerKeyPackage(reference: "ref\(index)", peer: Self.peer, keyPackage: [UInt8(index)]) }
        }
        #expect(try store.readGroupState { access in try access.peerKeyPackageCount(of: Self.peer) } == GroupStoreAccess.maxPeerKeyPackages)
        let first = try store.withGroupState { access in try access.takePeerKeyPackage(of: Self.peer) }
        #expect(first == [4])  // the four oldest were dropped
        #expect(try store.readGroupState { access in try access.peerKeyPackageCount(of: Self.peer) } == GroupStoreAccess.maxPeerKeyPackages - 1)
    }

    @Test func ownKeyPackageSecretsAreSealedAndDeletedAfterUse() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        let secrets = Array("PRIVATE-KEYS-abcdef".utf8)
        try store.withGroupState { access in try access.saveOwnKeyPackage(reference: "r1", recipient: Self.peer, keyPackage: [9], secrets: secrets) }
        let raw = try store.database.read { db in try String.fetchOne(db, sql: "SELECT secrets_sealed FROM mls_own_key_packages")! }
        #expect(!raw.contains("PRIVATE"))
        #expect(try store.readGroupState { access in try access.ownKeyPackage(reference: "r1") }?.secrets == secrets)
        try store.withGroupState { access in try access.deleteOwnKeyPackage(reference: "r1") }
        #expect(try store.readGroupState { access in try access.ownKeyPackage(reference: "r1") } == nil)
    }

    @Test func aFailedAttemptUndoesOnlyItsOwnWrites() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        struct Boom: Error {}
        let failure = try store.withGroupState { access -> (any Error)? in
            try access.queueWelcome([1], group: Self.group, recipient: "kept")
            return try access.attempt {
                try access.queueWelcome([2], group: Self.group, recipient: "undone")
                throw Boom()
            }
        }
        #expect(failure is Boom)
        #expect(try store.readGroupState { access in try access.queuedWelcomes() }.map(\.recipient) == ["kept"])
    }

    // MARK: Ratchets stored apart

    static func splitRecord(state: [UInt8], ratchets: [UInt8]) -> GroupRecord {
        var record = record(state: state)
        record.ratchets = ratchets
        return record
    }

    @Test func ratchetsAreSealedApartAndSavedAloneWithAGrowingVersion() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        let state = Array("EPOCH-PART".utf8)
        let first = try store.withGroupState { access in try access.save(Self.splitRecord(state: state, ratchets: Array("RATCHETS-1".utf8)), members: []) }
        let raw = try store.database.read { db in try Data.fetchOne(db, sql: "SELECT ratchets_blob FROM mls_group_ratchets")! }
        #expect(!String(decoding: raw, as: UTF8.self).contains("RATCHETS") && raw.first == 0x01)
        let second = try store.withGroupState { access in try access.saveRatchets(Array("RATCHETS-2".utf8), of: Self.group) }
        #expect(try #require(second) > first)
        let back = try #require(try store.readGroupState { access in try access.group(Self.group) })
        #expect(back.state == state && back.ratchets == Array("RATCHETS-2".utf8) && back.version == second)
        // The header alone reports the same version (what an account compares with the state it keeps in memory).
        #expect(try store.readGroupState { access in try access.group(Self.group, loadingState: false) }?.version == second)
        // A whole save after it still grows the version, and replaces the ratchets.
        let third = try store.withGroupState { access in try access.save(Self.splitRecord(state: state, ratchets: [7]), members: nil) }
        #expect(third > second!)
        #expect(try store.readGroupState { access in try access.group(Self.group) }?.ratchets == [7])
    }

    @Test func aWholeStateHasNoRatchetsToSaveAlone() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        _ = try store.withGroupState { access in try access.save(Self.record(state: [1, 2, 3]), members: []) }
        #expect(try store.withGroupState { access in try access.saveRatchets([9], of: Self.group) } == nil)
        #expect(try store.readGroupState { access in try access.group(Self.group) }?.ratchets == [])
    }

    @Test func savingAWholeOrEndedStateDeletesTheRatchetsAndKeepsTheVersionGrowing() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        _ = try store.withGroupState { access in try access.save(Self.splitRecord(state: [1], ratchets: [2]), members: []) }
        var last: Int64 = 0
        for _ in 0..<3 { last = try #require(try store.withGroupState { access in try access.saveRatchets([3], of: Self.group) }) }
        var ended = Self.record(state: [])
        ended.status = .exploded
        let version = try store.withGroupState { access in try access.save(ended, members: []) }
        #expect(version > last)
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mls_group_ratchets") } == 0)
        #expect(try store.readGroupState { access in try access.group(Self.group) }?.version == version)
    }

    @Test func tamperedOrMovedRatchetsDoNotOpen() throws {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        _ = try store.withGroupState { access in try access.save(Self.splitRecord(state: [1], ratchets: Array(repeating: 5, count: 40)), members: []) }
        // Another group's row with this group's sealed ratchets: the seal is bound to the group id.
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO mls_groups(group_id, epoch, mls_state_blob, created_at) VALUES ('other', 3, X'', 1)")
            try db.execute(sql: "INSERT INTO mls_group_ratchets(group_id, ratchets_blob, version) SELECT 'other', ratchets_blob, 9 FROM mls_group_ratchets")
        }
        #expect(throws: (any Error).self) { try store.readGroupState { access in try access.group("other") } }
        // One changed byte of the sealed ratchets.
        try store.database.write { db in
            var blob = Array(try Data.fetchOne(db, sql: "SELECT ratchets_blob FROM mls_group_ratchets WHERE group_id = ?", arguments: [Self.group])!)
            blob[blob.count / 2] ^= 0x01
            try db.execute(sql: "UPDATE mls_group_ratchets SET ratchets_blob = ? WHERE group_id = ?", arguments: [Data(blob), Self.group])
        }
        #expect(throws: (any Error).self) { try store.readGroupState { access in try access.group(Self.group) } }
    }

    /// A store made before ratchets were stored apart: migration v15 adds their table and leaves every group's whole
    /// state as it was; the group loads as before.
    @Test func aStoreFromBeforeTheSplitUpgradesWithItsWholeStates() throws {
        let queue = try DatabaseQueue()
        try Schema.migrator.migrate(queue, upTo: "v14-otk-confirm-intent")
        let key = SymmetricKey(size: .bits256)
        let sealer = ContentSealer(storageKey: key)
        let whole = Array("WHOLE-STATE".utf8)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO mls_groups(group_id, epoch, mls_state_blob, created_at, status, updated_at, state_version)
                    VALUES (?, 3, ?, 1, 'active', 1, 4)
                    """,
                arguments: [Self.group, Data(sealer.sealBinary(whole, context: "mls_state:" + Self.group))]
            )
        }
        try Schema.migrator.migrate(queue)
        let store = FeedStore(database: queue, sealer: sealer)
        let back = try #require(try store.readGroupState { access in try access.group(Self.group) })
        #expect(back.state == whole && back.ratchets.isEmpty && back.version == 4)
        // Its first save in two parts moves past the old version.
        let version = try store.withGroupState { access in try access.save(Self.splitRecord(state: [1], ratchets: [2]), members: nil) }
        #expect(version > 4)
    }
}
