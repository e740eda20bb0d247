import Foundation
import KithMLS
import KithMLSConformance
import KithTestSupport
import Testing

/// Malformed input must be rejected with an error, never a crash.
@Suite struct DecodingRobustnessTests {
    private struct MessagesCase: Decodable {
        let public_message_commit: String
        let private_message: String
        let mls_welcome: String
        let mls_group_info: String
        let mls_key_package: String
    }

    private func samples() throws -> [[UInt8]] {
        let data = try TestPaths.officialVector("mls/messages.json")
        let cases = try JSONDecoder().decode([MessagesCase].self, from: data).prefix(3)
        return cases.flatMap { [$0.public_message_commit, $0.private_message, $0.mls_welcome, $0.mls_group_info, $0.mls_key_package] }
            .compactMap { TestPaths.hex($0) }
    }

    @Test func everyStrictPrefixIsRejected() throws {
        for bytes in try samples() {
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)) {
                #expect(throws: (any Error).self) { try MLSMessage(tlsEncoded: Array(bytes[..<cut])) }
            }
        }
    }

    @Test func appendedByteIsRejected() throws {
        for bytes in try samples() {
            #expect(throws: MLSCodecError.trailingBytes(count: 1)) { try MLSMessage(tlsEncoded: bytes + [0]) }
        }
    }

    @Test func byteFlipsNeverCrash() throws {
        var generator = SystemRandomNumberGenerator()
        var decoded = 0
        for bytes in try samples() {
            for _ in 0..<200 {
                var mutated = bytes
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[index] ^= UInt8.random(in: 1...255, using: &generator)
                if let message = try? MLSMessage(tlsEncoded: mutated) {
                    decoded += 1
                    // Whatever decodes must re-encode to the same bytes (the encoding is canonical).
                    #expect(message.tlsEncoded == mutated)
                }
            }
        }
        #expect(decoded >= 0)
    }

    @Test func hugeLengthPrefixIsRejectedWithoutAllocation() {
        // A varint claiming 2^30-1 bytes with only a few present.
        #expect(throws: MLSCodecError.self) { try GroupSecrets(tlsEncoded: [0xBF, 0xFF, 0xFF, 0xFF, 1, 2]) }
    }
}
