import Crypto
import Foundation
import GRDB
import Testing
@testable import KithStore

/// One-time pools in SQLite: sealed private halves, a key marked used in the sending transaction,
/// a private key deleted when its message decrypts, pending/active, revocation and exhaustion.
@Suite struct OneTimePoolStoreTests {
    let peer = "peer-feed"

    func makeStore() throws -> FeedStore { try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256)) }

    func keys(_ count: Int) -> (own: [(keyID: [UInt8], privateKey: [UInt8])], peer: [[UInt8]]) {
        let own = (0..<count).map { index in
            (keyID: [UInt8](repeating: 0, count: 4) + withUnsafeBytes(of: UInt32(index).bigEndian, Array.init),
             privateKey: (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) })
        }
        let peer = (0..<count).map { index in [0x02] + (0..<32).map { UInt8(truncatingIfNeeded: $0 &+ index) } }
        return (own, peer)
    }

    func install(_ store: FeedStore, count: Int, state: OneTimePoolStatus.State = .active, exchange: [UInt8] = [1, 2, 3]) throws {
        let (own, peerKeys) = keys(count)
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: peer, exchangeID: exchange, state: state, ownKeys: own, peerKeys: peerKeys)
        }
    }

    @Test func keysAreTakenInOrderOnceAndExhaustionIsAnError() throws {
        let store = try makeStore()
        try install(store, count: 20)
        var positions: [Int] = []
        var crossings = 0
        for _ in 0..<20 {
            let taken = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
            positions.append(taken.position)
            if taken.crossedRenewalThreshold { crossings += 1 }
            #expect(taken.publicKey == keys(20).peer[taken.position])
        }
        #expect(positions == Array(0..<20))
        #expect(crossings == 1)
        #expect(throws: OneTimePoolError.self) {
            try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
        }
        let status = try #require(try store.oneTimePoolStatuses().first)
        #expect(status.peerRemaining == 0 && status.ownRemaining == 20 && status.needsRenewal)
        let used = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_peer_keys WHERE used = 1") }
        #expect(used == 20)
    }

    @Test func twoMessagesSentAtOnceNeverTakeTheSameKey() async throws {
        let store = try makeStore()
        try install(store, count: 64)
        let peer = self.peer
        let positions = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer).position }
                }
            }
            var all: [Int] = []
            for try await position in group { all.append(position) }
            return all
        }
        #expect(Set(positions).count == 64)
    }

    @Test func aTransactionThatFailsLeavesTheKeyUnused() throws {
        let store = try makeStore()
        try install(store, count: 2)
        #expect(throws: OneTimePoolError.self) {
            try store.withOneTimePools { pools throws(OneTimePoolError) in
                _ = try pools.takeNextPeerKey(peer: peer)
                throw OneTimePoolError.invalidPool("the message could not be stored")
            }
        }
        let taken = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
        #expect(taken.position == 0)
    }

    @Test func aPrivateKeyOpensOnceThenIsGone() throws {
        let store = try makeStore()
        try install(store, count: 3)
        let (own, _) = keys(3)
        let opened = try store.withOneTimePools { pools throws(OneTimePoolError) in
            let key = try pools.ownPrivateKey(peer: peer, keyID: own[1].keyID)
            try pools.deleteOwnKey(peer: peer, keyID: own[1].keyID)
            return key
        }
        #expect(opened == own[1].privateKey)
        // The replay finds no key.
        #expect(throws: OneTimePoolError.self) {
            try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.ownPrivateKey(peer: peer, keyID: own[1].keyID) }
        }
        #expect(try store.oneTimePoolStatuses().first?.ownRemaining == 2)
    }

    @Test func privateHalvesAreNeverStoredInTheClear() throws {
        let store = try makeStore()
        try install(store, count: 8)
        let rows = try store.database.read { db in try Data.fetchAll(db, sql: "SELECT private_key_sealed FROM otk_own_keys") }
        #expect(rows.count == 8)
        for (row, key) in zip(rows, keys(8).own) {
            #expect(row.count == 1 + 12 + 32 + 16)
            #expect(Array(row).firstRange(of: key.privateKey) == nil)
        }
        // A sealed key cannot be moved to another key id.
        try store.database.write { db in
            try db.execute(sql: "UPDATE otk_own_keys SET private_key_sealed = (SELECT private_key_sealed FROM otk_own_keys ORDER BY key_id LIMIT 1 OFFSET 1) WHERE key_id = ?", arguments: [Data(keys(8).own[0].keyID)])
        }
        #expect(throws: OneTimePoolError.self) {
            try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.ownPrivateKey(peer: peer, keyID: keys(8).own[0].keyID) }
        }
    }

    @Test func aPendingPoolReceivesButDoesNotSend() throws {
        let store = try makeStore()
        try install(store, count: 4, state: .pending, exchange: [9])
        #expect(throws: OneTimePoolError.self) {
            try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
        }
        #expect(try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.activate(peer: peer, exchangeID: [8]) } == false)
        // A message under the pending pool proves the peer committed: the pool becomes active.
        let own = keys(4).own
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            _ = try pools.ownPrivateKey(peer: peer, keyID: own[0].keyID)
            try pools.deleteOwnKey(peer: peer, keyID: own[0].keyID)
        }
        #expect(try store.oneTimePoolStatuses().first?.state == .active)
        _ = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
    }

    @Test func revocationDeletesBothPoolsAndANewExchangeReplacesThem() throws {
        let store = try makeStore()
        try install(store, count: 4)
        #expect(try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.revoke(peer: peer) })
        #expect(try store.oneTimePoolStatuses().isEmpty)
        let counts = try store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_own_keys"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_peer_keys"))
        }
        #expect(counts.0 == 0 && counts.1 == 0)
        do {
            _ = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.takeNextPeerKey(peer: peer) }
            Issue.record("sending after revocation must fail")
        } catch {
            guard case .noPool = error else { Issue.record("\(error)"); return }
        }
        try install(store, count: 4, exchange: [7])
        try install(store, count: 6, exchange: [8])
        let status = try #require(try store.oneTimePoolStatuses().first)
        #expect(status.ownCapacity == 6 && status.exchangeID == "08")
        let total = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_own_keys") }
        #expect(total == 6)
    }

    @Test func aRenewalKeepsTheReplacedPoolsUnusedKeysReadableOnceUntilRevocation() throws {
        let store = try makeStore()
        let old = keys(3)
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: peer, exchangeID: [1], state: .active, ownKeys: old.own, peerKeys: old.peer)
        }
        let first = old.own[0].keyID, inFlight = old.own[1].keyID
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            _ = try pools.ownPrivateKey(peer: peer, keyID: first)
            try pools.deleteOwnKey(peer: peer, keyID: first)
        }
        // The renewal: fresh ids, so only the old pool can answer for `inFlight`.
        let fresh = (0..<4).map { index in (keyID: [0xFF, 0, 0, 0, 0, 0, 0, UInt8(index)], privateKey: [UInt8](repeating: UInt8(index + 1), count: 32)) }
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: peer, exchangeID: [2], state: .active, ownKeys: fresh, peerKeys: keys(4).peer)
        }
        // A message sent under the old pool and delivered after the renewal opens, once.
        let opened = try store.withOneTimePools { pools throws(OneTimePoolError) in
            let raw = try pools.ownPrivateKey(peer: peer, keyID: inFlight)
            try pools.deleteOwnKey(peer: peer, keyID: inFlight)
            return raw
        }
        #expect(opened == old.own[1].privateKey)
        for used in [first, inFlight] {
            do {
                _ = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.ownPrivateKey(peer: peer, keyID: used) }
                Issue.record("a used key must be gone")
            } catch {
                guard case .unknownKey = error else { Issue.record("\(error)"); return }
            }
        }
        // Sealed like the current pool, and bounded: a second renewal keeps only the pool it replaced.
        let kept = try store.database.read { db in try Data.fetchAll(db, sql: "SELECT private_key_sealed FROM otk_retired_keys") }
        #expect(kept.count == 1 && !kept.contains { $0.range(of: Data(old.own[2].privateKey)) != nil })
        try install(store, count: 2, exchange: [3])
        let afterSecond = try store.database.read { db in try Data.fetchAll(db, sql: "SELECT key_id FROM otk_retired_keys") }
        #expect(afterSecond.count == 4 && afterSecond.allSatisfy { $0.first == 0xFF })
        // Revocation deletes the kept keys too.
        #expect(try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.revoke(peer: peer) })
        let left = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_retired_keys") }
        #expect(left == 0)
    }

    @Test func aRenewalThatIsThenDiscardedStillLetsTheReplacedPoolsKeysOpenOnce() throws {
        let store = try makeStore()
        let old = keys(2)
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: peer, exchangeID: [1], state: .active, ownKeys: old.own, peerKeys: old.peer)
        }
        let fresh = (0..<2).map { index in (keyID: [0xFF, 0, 0, 0, 0, 0, 0, UInt8(index)], privateKey: [UInt8](repeating: UInt8(index + 1), count: 32)) }
        try store.withOneTimePools { pools throws(OneTimePoolError) in
            try pools.install(peer: peer, exchangeID: [2], state: .pending, ownKeys: fresh, peerKeys: keys(2).peer)
            _ = try pools.discard(peer: peer, exchangeID: [2])
        }
        #expect(try store.oneTimePoolStatuses().isEmpty)
        let inFlight = old.own[1].keyID
        let opened = try store.withOneTimePools { pools throws(OneTimePoolError) in
            let raw = try pools.ownPrivateKey(peer: peer, keyID: inFlight)
            try pools.deleteOwnKey(peer: peer, keyID: inFlight)
            return raw
        }
        #expect(opened == old.own[1].privateKey)
        do {
            _ = try store.withOneTimePools { pools throws(OneTimePoolError) in try pools.ownPrivateKey(peer: peer, keyID: inFlight) }
            Issue.record("a used key must be gone")
        } catch {
            guard case .noPool = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func malformedPoolsAreRefusedAndNothingIsWritten() throws {
        let store = try makeStore()
        let (own, peerKeys) = keys(2)
        for (ownKeys, peers) in [([], peerKeys), (own, []), ([own[0], own[0]], peerKeys), (own, [[1, 2]])] {
            #expect(throws: OneTimePoolError.self) {
                try store.withOneTimePools { pools throws(OneTimePoolError) in
                    try pools.install(peer: peer, exchangeID: [1], state: .active, ownKeys: ownKeys, peerKeys: peers)
                }
            }
        }
        #expect(try store.oneTimePoolStatuses().isEmpty)
    }
}
