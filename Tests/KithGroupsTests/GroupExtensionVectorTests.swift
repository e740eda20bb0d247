import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithMLS
import KithTestSupport
import Testing

@testable import KithGroups

/// Kith's published group vectors (`TestVectors/groups/groups-v1.json`): the bytes Kith itself defines for groups —
/// the member credential, the policy extension 0xFF10, the identity-key leaf extension 0xFF11 (and leaves it must
/// refuse), the group audience, and the `group_event` / `mls_key_package` contents a receiver stores.
///
/// Generator: `KITH_WRITE_VECTORS=1 swift test --filter GroupExtensionVectorTests` rewrites the file from the fixed
/// inputs below; without the variable the test checks the committed file against this code.
/// `Interop/groups/check_vectors.py` rebuilds every value independently (Python `cryptography`, hashlib).
@Suite struct GroupExtensionVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("groups/groups-v1.json")
    static let memberSeed: [UInt8] = (0..<32).map { UInt8(0x40 + $0) }
    static let committerSeed: [UInt8] = (0..<32).map { UInt8(0x90 + $0) }
    static let groupID: [UInt8] = (0..<32).map { UInt8(0xE0 ^ $0) }
    static let mlsMessage: [UInt8] = [0x00, 0x01, 0x00, 0x02] + (0..<28).map { UInt8($0) }
    static let keyPackageReference: [UInt8] = (0..<32).map { UInt8(0xA0 + $0) }
    static let issuedAt: UInt64 = 1_800_000_100

    static func hex(_ bytes: [UInt8]) -> JSONValue { .string(TestPaths.hexString(bytes)) }

    static func generate() throws -> JSONObject {
        let memberKey = try Curve25519.Signing.PrivateKey(rawRepresentation: memberSeed).publicKey
        let committerKey = try Curve25519.Signing.PrivateKey(rawRepresentation: committerSeed).publicKey
        let member = FeedID(identityKey: memberKey)
        let committer = FeedID(identityKey: committerKey)
        let group = try GroupID(rawBytes: groupID)

        var people = JSONObject()
        people["member_seed_hex"] = hex(memberSeed)
        people["member_identity_key_hex"] = hex(Array(memberKey.rawRepresentation))
        people["member_feed_id"] = .string(member.string)
        people["committer_seed_hex"] = hex(committerSeed)
        people["committer_feed_id"] = .string(committer.string)

        var credential = JSONObject()
        credential["credential_tls_hex"] = hex(GroupCredential.credential(for: member).tlsEncoded)

        var policy = JSONObject()
        policy["extension_type"] = .integer(Int64(GroupPolicy.extensionType.rawValue))
        policy["extension_data_hex"] = hex(GroupPolicy(committer: committer).groupContextExtension.data)

        var identity = JSONObject()
        identity["extension_type"] = .integer(Int64(GroupIdentityKey.extensionType.rawValue))
        identity["extension_data_hex"] = hex(GroupIdentityKey.leafExtension(memberKey).data)
        // Leaf extensions a receiver must not accept as naming `member` (key of another feed, short key, trailing byte).
        identity["invalid_extension_data_hex"] = .array([
            hex(GroupIdentityKey.leafExtension(committerKey).data),
            hex([0x1F] + Array(memberKey.rawRepresentation.prefix(31))),
            hex(GroupIdentityKey.leafExtension(memberKey).data + [0x00]),
        ])

        var contents = JSONObject()
        contents["audience"] = .string(group.audience)
        let event = GroupEvent(groupID: group.string, event: GroupEventKind.addMember.rawValue, mlsMessage: Base64URL.encode(mlsMessage))
        contents["group_event_plaintext"] = .string(String(decoding: try Content.groupEvent(event).canonicalBytes(), as: UTF8.self))
        contents["mls_key_package_plaintext"] = .string(String(decoding: try Content.keyPackageOffer(KeyPackageOffer(keyPackageBytes: mlsMessage)).canonicalBytes(), as: UTF8.self))

        // A restored committer's warrant naming the member as proxy (docs/CONTINUITY.md section 8), the policy that
        // records it (version 2), and the readmission request that carries it.
        let committerPrivate = try Curve25519.Signing.PrivateKey(rawRepresentation: committerSeed)
        let warrant = try CommitterReadmission.sign(
            groupID: group, committer: committer, proxy: member, keyPackageReference: keyPackageReference, issuedAt: issuedAt,
            identityKey: committerPrivate)
        var readmission = JSONObject()
        readmission["key_package_ref_hex"] = hex(keyPackageReference)
        readmission["issued_at"] = .integer(Int64(issuedAt))
        readmission["signed_label"] = .string(String(decoding: CommitterReadmission.label, as: UTF8.self))
        readmission["warrant_hex"] = hex(warrant.encoded)
        readmission["policy_v2_extension_data_hex"] = hex(GroupPolicy(committer: committer).recording(warrant).groupContextExtension.data)
        readmission["request_plaintext"] = .string(String(decoding: try Content.keyPackageOffer(
            KeyPackageOffer(keyPackageBytes: mlsMessage, readmitGroup: group.string, committerReadmission: warrant.encoded)).canonicalBytes(), as: UTF8.self))
        // Warrants a member must refuse: another proxy in the signed fields, a later time, a flipped signature bit.
        var tampered: [JSONValue] = []
        for (offset, flip) in [(36, UInt8(0x01)), (warrant.encoded.count - 70, 0x01), (warrant.encoded.count - 1, 0x80)] {
            var bytes = warrant.encoded
            bytes[offset] ^= flip
            tampered.append(hex(bytes))
        }
        readmission["invalid_warrant_hex"] = .array(tampered)

        var root = JSONObject()
        root["committer_readmission"] = .object(readmission)
        root["description"] = .string("Kith groups v1: bytes Kith defines around MLS (docs/GROUPS.md sections 1-3)")
        root["group_id_hex"] = hex(groupID)
        root["mls_message_hex"] = hex(mlsMessage)
        root["people"] = .object(people)
        root["credential"] = .object(credential)
        root["policy"] = .object(policy)
        root["identity_key_extension"] = .object(identity)
        root["contents"] = .object(contents)
        return root
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let generated = CanonicalJSON.serialize(.object(try Self.generate()))
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: generated)
        #expect(bytes == generated)
    }

    @Test func theTamperedWarrantsFailTheirSignature() throws {
        let vectors = try #require(try CanonicalJSON.parse(Array(Data(contentsOf: Self.url))).objectValue)
        let readmission = try #require(vectors["committer_readmission"]?.objectValue)
        let committerKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Self.committerSeed).publicKey
        let validHex = try #require(readmission["warrant_hex"]?.stringValue)
        let valid = try CommitterReadmission(decoding: try #require(TestPaths.hex(validHex)))
        #expect(valid.isSigned(by: committerKey))
        for value in try #require(readmission["invalid_warrant_hex"]?.arrayValue) {
            let text = try #require(value.stringValue)
            let bytes = try #require(TestPaths.hex(text))
            let decoded = try? CommitterReadmission(decoding: bytes)
            #expect(decoded?.isSigned(by: committerKey) != true)
        }
    }

    @Test func theInvalidLeafExtensionsAreRefused() throws {
        let memberKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Self.memberSeed).publicKey
        let committerKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Self.committerSeed).publicKey
        let member = FeedID(identityKey: memberKey)
        let suite = try GroupSuite.cipherSuite()
        func leaf(_ data: [UInt8]) throws -> LeafNode {
            let (keyPackage, _) = try KeyPackage.generate(
                suite: suite, credential: GroupCredential.credential(for: member), signatureKeys: suite.signature.generateKeyPair(),
                lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: GroupSuite.capabilities,
                leafExtensions: [Extension(type: GroupIdentityKey.extensionType, data: data)]
            )
            return keyPackage.leafNode
        }
        #expect(GroupIdentityKey.feedKey(of: try leaf(GroupIdentityKey.leafExtension(memberKey).data))?.feed == member)
        #expect(GroupIdentityKey.feedKey(of: try leaf(GroupIdentityKey.leafExtension(committerKey).data)) == nil)
        #expect(GroupIdentityKey.feedKey(of: try leaf([0x1F] + Array(memberKey.rawRepresentation.prefix(31)))) == nil)
        #expect(GroupIdentityKey.feedKey(of: try leaf(GroupIdentityKey.leafExtension(memberKey).data + [0x00])) == nil)
        #expect(throws: GroupError.missingPolicy) { try GroupPolicy(extensions: [Extension(type: GroupPolicy.extensionType, data: [0x02, 0x20] + member.rawBytes)]) }
        #expect(try GroupPolicy(extensions: [GroupPolicy(committer: member).groupContextExtension]).committer == member)
    }
}
