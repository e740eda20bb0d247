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
}
