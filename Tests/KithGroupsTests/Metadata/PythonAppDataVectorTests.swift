import Foundation
import KithConvos
import KithIdentity
import KithTestSupport
import Testing

@testable import KithGroups

/// Records written by an independent implementation (Google's protobuf package and Python's zlib,
/// `Interop/convos/appdata_vectors.py`; file in Tests/Vectors/convos, origin in SOURCES.md).
@Suite struct PythonAppDataVectorTests {
    struct Vectors: Decodable {
        let cases: [Case]
    }

    struct Case: Decodable {
        let name: String
        let appData: String
        let compressed: Bool
        let zlibWrapped: Bool
        let protobufHex: String
        let expected: Expected

        enum CodingKeys: String, CodingKey {
            case name, appData, compressed, zlibWrapped, expected
            case protobufHex = "protobuf_hex"
        }
    }

    struct Expected: Decodable {
        let tag: String
        let profiles: [Profile]
        let expiresAtUnix: Int64?
        let emoji: String?
    }

    struct Profile: Decodable {
        let idHex: String
        let name: String?
        let image: String?

        enum CodingKeys: String, CodingKey {
            case name, image
            case idHex = "id_hex"
        }
    }

    private func vectors() throws -> [Case] {
        let data = try TestPaths.officialVector("convos/appdata-python-protobuf.json")
        return try JSONDecoder().decode(Vectors.self, from: data).cases
    }

    @Test func vectorsArePresent() throws {
        let names = try vectors().map(\.name)
        #expect(names.count == 5)
        #expect(names.contains("unknown-fields-9-and-10") && names.contains("all-fields-zlib-wrapped"))
    }

    @Test func kithReadsWhatPythonWrote() throws {
        for vector in try vectors() {
            let metadata = try ConversationMetadata(appData: vector.appData)
            #expect(metadata.tag == vector.expected.tag, "\(vector.name)")
            #expect(metadata.expiresAtUnix == vector.expected.expiresAtUnix, "\(vector.name)")
            #expect(metadata.emoji == vector.expected.emoji, "\(vector.name)")
            #expect(metadata.profiles.count == vector.expected.profiles.count, "\(vector.name)")
            for (profile, expected) in zip(metadata.profiles, vector.expected.profiles) {
                #expect(TestPaths.hexString(profile.feedID.rawBytes) == expected.idHex, "\(vector.name)")
                #expect(profile.name == expected.name && profile.image == expected.image, "\(vector.name)")
            }
            let frame = try MetadataTestSupport.frame(of: vector.appData)
            #expect((frame.first == AppDataFrame.compressionMarker) == vector.compressed, "\(vector.name)")
            #expect((vector.compressed && frame[5] == 0x78) == vector.zlibWrapped, "\(vector.name)")
        }
    }

    @Test func kithWritesBackTheSameProtobufAndTheSameFramingDecision() throws {
        for vector in try vectors() {
            let metadata = try ConversationMetadata(appData: vector.appData)
            let written = metadata.encodedAppData()
            #expect(TestPaths.hexString(try MetadataTestSupport.protobuf(of: written)) == vector.protobufHex, "\(vector.name)")
            let frame = try MetadataTestSupport.frame(of: written)
            #expect((frame.first == AppDataFrame.compressionMarker) == vector.compressed, "\(vector.name)")
        }
    }

    @Test func kithBuildsTheSmallRecordByteForByte() throws {
        let vector = try #require(try vectors().first { $0.name == "small-uncompressed" })
        let alice = try FeedID(rawBytes: [UInt8](repeating: 0xA1, count: 32))
        let metadata = try ConversationMetadata(
            tag: ConversationTag("Abc123XYZ0"), profiles: [MemberProfile(feedID: alice, name: "Alice")])
        #expect(metadata.encodedAppData() == vector.appData)
    }
}
