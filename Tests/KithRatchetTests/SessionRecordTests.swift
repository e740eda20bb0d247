import Crypto
import KithCanonical
import KithIdentity
import Testing
@testable import KithRatchet

/// The stored session record: codec bounds and which session receives.
@Suite struct SessionRecordTests {
    static func keys(_ byte: UInt8) throws -> LocalIdentityKeys {
        let seed = [UInt8](repeating: byte, count: 32)
        return try LocalIdentityKeys(
            identityKey: try Curve25519.Signing.PrivateKey(rawRepresentation: seed),
            dhKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed),
            pqKey: try MLKEM768.PrivateKey(seedRepresentation: seed + seed, publicKey: nil)
        )
    }

    static func session(_ local: LocalIdentityKeys, to peer: LocalIdentityKeys) throws -> RatchetSession {
        let bundle = try PrekeyBundle(peer: try peer.peerIdentity, signedPrekey: Array(peer.dhKey.publicKey.rawRepresentation), oneTimePrekey: nil)
        return try RatchetSession.initiate(local: local, bundle: bundle)
    }

    @Test func roundTripsAndRejectsMalformedRecords() throws {
        let alice = try Self.keys(1), bob = try Self.keys(2)
        let record = SessionRecord(current: try Self.session(alice, to: bob), archived: [try Self.session(alice, to: bob)])
        let encoded = record.encoded
        #expect(try SessionRecord.decode(encoded) == record)
        #expect(throws: RatchetError.self) { try SessionRecord.decode([0x02] + encoded.dropFirst()) }
        #expect(throws: RatchetError.self) { try SessionRecord.decode([0x01, 0x00]) }
        #expect(throws: RatchetError.self) { try SessionRecord.decode([0x01, 0x05] + encoded.dropFirst(2)) }
        #expect(throws: RatchetError.self) { try SessionRecord.decode(encoded + [0x00]) }
        #expect(throws: RatchetError.self) { try SessionRecord.decode(Array(encoded.dropLast())) }
        #expect(throws: RatchetError.self) { try SessionRecord.decode([0x01, 0x01, 0xFF, 0xFF, 0xFF, 0xFF]) }
    }

    @Test func archivedSessionsKeepReceivingAfterLosingTheTieBreak() throws {
        let alice = try Self.keys(1), bob = try Self.keys(2)
        let (low, high) = (alice.feed < bob.feed) ? (alice, bob) : (bob, alice)
        let lowRecord = SessionRecord(current: try Self.session(low, to: high))
        let highSession = try Self.session(high, to: low)
        // The higher side sends two messages of its (losing) initial chain.
        var sender = highSession
        var wires: [[UInt8]] = []
        for sequence in 0..<2 {
            let context = try DirectMessageContext.direct(from: high.feedID, to: low.feedID, sequence: UInt64(sequence))
            let (wire, next) = try sender.encrypt(Array("m\(sequence)".utf8), context: context)
            wires.append(wire)
            sender = next
        }
        var record = lowRecord
        for (sequence, wire) in wires.enumerated() {
            let context = try DirectMessageContext.direct(from: high.feedID, to: low.feedID, sequence: UInt64(sequence))
            let received = try SessionRecord.receive(
                wire, record: record, context: context, local: low, peer: try high.peerIdentity, prekeys: InMemoryPrekeyStore(), now: 0
            )
            #expect(received.plaintext == Array("m\(sequence)".utf8))
            // The winner keeps its own session current; the loser's is archived for reading.
            #expect(received.record.current.baseKey == lowRecord.current.baseKey)
            record = received.record
        }
        #expect(record.archived.count == 1)
    }
}
