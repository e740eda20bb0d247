import Foundation
import KithMLS
import KithMLSConformance
import KithTestSupport
import Testing

/// Fuzz-style robustness: every structure of `messages.json` is truncated at every offset and mutated with seeded random
/// byte flips, insertions and deletions; decoding must throw one of the module's typed errors or decode to a value that
/// re-encodes to exactly the mutated bytes (the encoding is canonical). A crash fails the whole run.
@Suite struct MutationFuzzTests {
    /// One encoded structure and the decoder that re-encodes it.
    struct Sample {
        var field: String
        var bytes: [UInt8]
        var roundTrip: @Sendable ([UInt8]) throws -> [UInt8]
    }

    private static func codable<T: TLSCodable>(_ type: T.Type) -> @Sendable ([UInt8]) throws -> [UInt8] {
        { try T(tlsEncoded: $0).tlsEncoded }
    }

    private static func proposal(_ type: ProposalType) -> @Sendable ([UInt8]) throws -> [UInt8] {
        { bytes in
            var reader = TLSReader(bytes)
            let proposal = try Proposal.decodeBody(type: type, from: &reader)
            try reader.expectEnd()
            var writer = TLSWriter()
            proposal.encodeBody(to: &writer)
            return writer.bytes
        }
    }

    /// Decoders by `messages.json` field.
    private static let decoders: [String: @Sendable ([UInt8]) throws -> [UInt8]] = [
        "mls_welcome": codable(MLSMessage.self), "mls_group_info": codable(MLSMessage.self), "mls_key_package": codable(MLSMessage.self),
        "ratchet_tree": codable(RatchetTree.self), "group_secrets": codable(GroupSecrets.self), "add_proposal": proposal(.add),
        "update_proposal": proposal(.update), "remove_proposal": proposal(.remove), "pre_shared_key_proposal": proposal(.psk),
        "re_init_proposal": proposal(.reinit), "external_init_proposal": proposal(.externalInit),
        "group_context_extensions_proposal": proposal(.groupContextExtensions), "commit": codable(Commit.self),
        "public_message_application": codable(MLSMessage.self), "public_message_proposal": codable(MLSMessage.self),
        "public_message_commit": codable(MLSMessage.self), "private_message": codable(MLSMessage.self),
    ]

    /// Every field of every `stride`-th case of `messages.json`.
    static func samples(stride step: Int) throws -> [Sample] {
        let data = try TestPaths.officialVector("mls/messages.json")
        let cases = try JSONDecoder().decode([[String: String]].self, from: data)
        var out: [Sample] = []
        for index in stride(from: 0, to: cases.count, by: step) {
            for (field, hex) in cases[index].sorted(by: { $0.key < $1.key }) {
                guard let decoder = decoders[field], let bytes = TestPaths.hex(hex) else { continue }
                out.append(Sample(field: "case \(index) \(field)", bytes: bytes, roundTrip: decoder))
            }
        }
        return out
    }

    private struct PassiveEpoch: Decodable {
        let proposals: [String]
        let commit: String
    }

    private struct PassiveCase: Decodable {
        let key_package: String
        let welcome: String
        let ratchet_tree: String?
        let epochs: [PassiveEpoch]
    }

    /// KeyPackages, Welcomes, trees, proposals and commits of every `stride`-th case of `passive-client-handling-commit.json`.
    static func passiveSamples(stride step: Int) throws -> [Sample] {
        let data = try TestPaths.officialVector("mls/passive-client-handling-commit.json")
        let cases = try JSONDecoder().decode([PassiveCase].self, from: data)
        var out: [Sample] = []
        for index in stride(from: 0, to: cases.count, by: step) {
            let item = cases[index]
            var fields: [(String, String, @Sendable ([UInt8]) throws -> [UInt8])] = [
                ("key_package", item.key_package, codable(MLSMessage.self)), ("welcome", item.welcome, codable(MLSMessage.self)),
            ]
            if let tree = item.ratchet_tree { fields.append(("ratchet_tree", tree, codable(RatchetTree.self))) }
            for (number, epoch) in item.epochs.enumerated() {
                fields.append(("epoch \(number) commit", epoch.commit, codable(MLSMessage.self)))
                for proposal in epoch.proposals { fields.append(("epoch \(number) proposal", proposal, codable(MLSMessage.self))) }
            }
            for (field, hex, decoder) in fields {
                guard let bytes = TestPaths.hex(hex) else { continue }
                out.append(Sample(field: "passive case \(index) \(field)", bytes: bytes, roundTrip: decoder))
            }
        }
        return out
    }

    /// True for the module's typed error enums.
    static func isTyped(_ error: any Error) -> Bool {
        error is MLSCodecError || error is MLSTreeError || error is MLSFramingError || error is MLSGroupError || error is MLSWelcomeError
            || error is MLSCryptoError || error is MLSTreeKEMError || error is MLSSecretTreeError
    }

    /// Decodes `bytes`: a typed error or a canonical round trip passes; anything else is recorded.
    static func check(_ sample: Sample, _ bytes: [UInt8], _ what: String) -> Bool {
        do {
            let encoded = try sample.roundTrip(bytes)
            #expect(encoded == bytes, "\(sample.field) \(what): decoded but re-encoded differently")
            return true
        } catch {
            #expect(isTyped(error), "\(sample.field) \(what): untyped error \(type(of: error)): \(error)")
            return false
        }
    }

    @Test func originalsRoundTrip() throws {
        let samples = try Self.samples(stride: 1)
        #expect(samples.count == 300 * 17)
        for sample in try samples + Self.passiveSamples(stride: 1) { #expect(Self.check(sample, sample.bytes, "original")) }
    }

    @Test func truncationAtEveryOffsetThrowsTypedError() throws {
        for sample in try Self.samples(stride: 5) + Self.passiveSamples(stride: 4) {
            for cut in 0..<sample.bytes.count {
                #expect(!Self.check(sample, Array(sample.bytes[..<cut]), "cut at \(cut)"), "\(sample.field): prefix of \(cut) bytes decoded")
            }
        }
    }

    @Test func appendedBytesThrowTrailingBytes() throws {
        for sample in try Self.samples(stride: 10) {
            #expect(throws: MLSCodecError.trailingBytes(count: 3), "\(sample.field)") { try sample.roundTrip(sample.bytes + [0, 1, 2]) }
        }
    }

    @Test func randomMutationsThrowTypedErrorsOrStayCanonical() throws {
        var rng = SeededGenerator(seed: 0xF022_0004)
        var decoded = 0
        var rejected = 0
        for sample in try Self.samples(stride: 1) + Self.passiveSamples(stride: 1) where !sample.bytes.isEmpty {
            for round in 0..<16 {
                var mutated = sample.bytes
                let index = Int.random(in: 0..<mutated.count, using: &rng)
                switch round % 4 {
                case 0, 1: mutated[index] ^= UInt8.random(in: 1...255, using: &rng)
                case 2: mutated.insert(UInt8.random(in: 0...255, using: &rng), at: index)
                default: mutated.remove(at: index)
                }
                if Self.check(sample, mutated, "mutation \(round) at \(index)") { decoded += 1 } else { rejected += 1 }
            }
        }
        #expect(rejected > 0)
        print("mutation fuzz: \(rejected) rejected with typed errors, \(decoded) decoded canonically")
    }

    @Test func nonMinimalLengthInsideAMessageIsRejected() throws {
        // mls_key_package: version(2) wire_format(2) KeyPackage{version(2) cipher_suite(2) init_key<V>...}: the init_key length
        // sits at offset 8; re-encode it in two bytes.
        let sample = try #require(Self.samples(stride: 300).first { $0.field.hasSuffix("mls_key_package") })
        let length = sample.bytes[8]
        #expect(length < 64)
        let stretched = Array(sample.bytes[..<8]) + [0x40, length] + Array(sample.bytes[9...])
        #expect(throws: MLSCodecError.nonMinimalVarInt(offset: 8)) { try sample.roundTrip(stretched) }
        let reserved = Array(sample.bytes[..<8]) + [0xC0 | length] + Array(sample.bytes[9...])
        #expect(throws: MLSCodecError.invalidVarIntPrefix(offset: 8)) { try sample.roundTrip(reserved) }
    }

    @Test func oversizedLengthInsideAMessageIsRejected() throws {
        // The init_key length claims more bytes than the message holds (up to the varint maximum).
        let sample = try #require(Self.samples(stride: 300).first { $0.field.hasSuffix("mls_key_package") })
        for header: [UInt8] in [[0x3F], [0x7F, 0xFF], [0xBF, 0xFF, 0xFF, 0xFF]] {
            let oversized = Array(sample.bytes[..<8]) + header + Array(sample.bytes[9...])
            #expect(throws: MLSCodecError.self) { try sample.roundTrip(oversized) }
        }
    }
}
