import Crypto
import KithSync
import Testing
@testable import KithNearby

private func contact(_ key: Curve25519.KeyAgreement.PrivateKey, pairKey: SymmetricKey) -> NearbyContact {
    NearbyContact(staticKey: Array(key.publicKey.rawRepresentation), beaconKey: NearbyBeacon.beaconKey(contactsKey: pairKey))
}

@Suite("Nearby beacons")
struct NearbyBeaconTests {
    let alice = Curve25519.KeyAgreement.PrivateKey()
    let bob = Curve25519.KeyAgreement.PrivateKey()
    let carol = Curve25519.KeyAgreement.PrivateKey()
    let aliceBob = SymmetricKey(size: .bits256)
    let aliceCarol = SymmetricKey(size: .bits256)

    var alicePublic: [UInt8] { Array(alice.publicKey.rawRepresentation) }
    var bobPublic: [UInt8] { Array(bob.publicKey.rawRepresentation) }

    @Test("a beacon is KNB | version | port | count | tags, byte-exact")
    func byteExact() throws {
        let beacon = NearbyBeacon(port: 0x1D1F, tags: [[1, 2, 3, 4, 5, 6, 7, 8]])
        #expect(beacon.encoded == [0x4B, 0x4E, 0x42, 0x01, 0x1D, 0x1F, 0x01, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try NearbyBeacon(decoding: beacon.encoded) == beacon)
    }

    @Test("malformed beacons are rejected")
    func rejections() {
        let good = NearbyBeacon(port: 7455, tags: [[UInt8]](repeating: [0, 0, 0, 0, 0, 0, 0, 0], count: 8)).encoded
        #expect(throws: NearbyError.notABeacon) { try NearbyBeacon(decoding: [0x4B, 0x4E]) }
        #expect(throws: NearbyError.notABeacon) { try NearbyBeacon(decoding: [0x4A] + good.dropFirst()) }
        #expect(throws: NearbyError.unsupportedVersion(2)) { try NearbyBeacon(decoding: Array(good[0..<3]) + [2] + good.dropFirst(4)) }
        #expect(throws: NearbyError.invalidPort) { try NearbyBeacon(decoding: Array(good[0..<4]) + [0, 0] + good.dropFirst(6)) }
        #expect(throws: NearbyError.invalidTagCount(8)) { try NearbyBeacon(decoding: Array(good.dropLast())) }
        #expect(throws: NearbyError.invalidTagCount(0)) { try NearbyBeacon(decoding: Array(good[0..<6]) + [0]) }
        #expect(throws: NearbyError.self) { try NearbyBeacon(decoding: good + [0]) }
    }

    @Test("the tag is the first 8 bytes of HMAC-SHA256(beacon_key, label | epoch | sender key)")
    func tagDefinition() {
        let key = SymmetricKey(data: [UInt8](repeating: 0x11, count: 32))
        let sender = [UInt8](repeating: 0x22, count: 32)
        let message = Array("kith-nearby/1".utf8) + [0, 0, 0, 0, 0, 0, 0x0B, 0xB8] + sender
        let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: key)).prefix(8)
        #expect(NearbyBeacon.tag(beaconKey: key, epoch: 3000, senderStaticKey: sender) == Array(expected))
        #expect(NearbyBeacon.epoch(unixSeconds: 1_800_000_000) == 3_000_000)
        #expect(NearbyBeacon.epoch(unixSeconds: 1_800_000_599.9) == 3_000_000)
    }

    @Test("a contact recognises the beacon; a stranger and the other direction do not")
    func recognition() throws {
        let epoch: UInt64 = 3_000_000
        let aliceBook = NearbyBeaconCodebook(localStaticKey: alicePublic, contacts: [contact(bob, pairKey: aliceBob), contact(carol, pairKey: aliceCarol)], epoch: epoch)
        let bobBook = NearbyBeaconCodebook(localStaticKey: bobPublic, contacts: [contact(alice, pairKey: aliceBob)], epoch: epoch)
        let strangerBook = NearbyBeaconCodebook(
            localStaticKey: Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation),
            contacts: [contact(alice, pairKey: SymmetricKey(size: .bits256))], epoch: epoch
        )
        let beacons = aliceBook.beacons(port: 7455)
        #expect(beacons.count == 1)
        let beacon = try #require(beacons.first)
        #expect(beacon.tags.count == 8)  // 2 real tags padded to 8
        #expect(beacon.tags == beacon.tags.sorted { $0.lexicographicallyPrecedes($1) })
        #expect(bobBook.recognise(beacon).map(\.staticKey) == [alicePublic])
        #expect(strangerBook.recognise(beacon).isEmpty)
        // Directional: Alice's own codebook does not mistake her beacon for Bob's.
        #expect(aliceBook.recognise(beacon).isEmpty)
        // Bob's beacon carries a different tag for the same pair.
        let bobBeacon = try #require(bobBook.beacons(port: 7455).first)
        #expect(Set(bobBeacon.tags).isDisjoint(with: Set(beacon.tags)))
        #expect(aliceBook.recognise(bobBeacon).map(\.staticKey) == [bobPublic])
    }

    @Test("tags rotate every epoch; recognition tolerates one epoch of skew")
    func rotation() throws {
        let bobContact = [contact(bob, pairKey: aliceBob)]
        let first = try #require(NearbyBeaconCodebook(localStaticKey: alicePublic, contacts: bobContact, epoch: 100).beacons(port: 1).first)
        let second = try #require(NearbyBeaconCodebook(localStaticKey: alicePublic, contacts: bobContact, epoch: 101).beacons(port: 1).first)
        #expect(Set(first.tags).isDisjoint(with: Set(second.tags)))
        let aliceForBob = [contact(alice, pairKey: aliceBob)]
        #expect(!NearbyBeaconCodebook(localStaticKey: bobPublic, contacts: aliceForBob, epoch: 101).recognise(first).isEmpty)
        #expect(NearbyBeaconCodebook(localStaticKey: bobPublic, contacts: aliceForBob, epoch: 102).recognise(first).isEmpty)
    }

    @Test("many contacts spread over several padded datagrams")
    func manyContacts() {
        let contacts = (0..<200).map { _ in NearbyContact(staticKey: Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation), beaconKey: SymmetricKey(size: .bits256)) }
        let beacons = NearbyBeaconCodebook(localStaticKey: alicePublic, contacts: contacts, epoch: 1).beacons(port: 9)
        #expect(beacons.map(\.tags.count) == [144, 56])
        #expect(beacons.allSatisfy { $0.encoded.count <= 7 + 144 * 8 })
        let empty = NearbyBeaconCodebook(localStaticKey: alicePublic, contacts: [], epoch: 1).beacons(port: 9)
        #expect(empty.map(\.tags.count) == [8])
    }
}
