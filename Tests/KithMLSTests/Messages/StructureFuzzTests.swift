import KithMLS
import KithMLSConformance
import Testing

/// The structures not covered by `messages.json` (GroupContext, GroupInfo, LeafNode, UpdatePath, SenderData,
/// AuthenticatedContent, Capabilities, RequiredCapabilities, ExternalSender, PreSharedKeyID) are encoded from a live
/// group, then truncated at every offset and mutated at random: decoding throws a typed error or re-encodes exactly.
@Suite struct StructureFuzzTests {
    private static func codable<T: TLSCodable>(_ value: T, _ field: String) -> MutationFuzzTests.Sample {
        MutationFuzzTests.Sample(field: field, bytes: value.tlsEncoded, roundTrip: { try T(tlsEncoded: $0).tlsEncoded })
    }

    private func samples() throws -> [MutationFuzzTests.Sample] {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let senders = [ExternalSender(signatureKey: [1, 2, 3], credential: .basic(identity: [4])),
                       ExternalSender(signatureKey: [5], credential: .x509(certificates: [[6], [7, 8]]))]
        let required = RequiredCapabilities(extensionTypes: [ExtensionType(rawValue: 0xF0A1)], proposalTypes: [.reinit], credentialTypes: [.basic])
        let extensions = [Extension(type: .externalSenders, data: senders.flatMap(\.tlsEncoded)), required.asExtension]
        var state = try GroupState(creating: [9, 9], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let commit = try state.commit(adding: [bob.keyPackage])
        var samples: [MutationFuzzTests.Sample] = [
            Self.codable(commit.newState.context, "GroupContext"),
            Self.codable(try commit.newState.groupInfo(), "GroupInfo"),
            Self.codable(try #require(commit.newState.tree.leaf(LeafIndex(0))), "LeafNode"),
            Self.codable(alice.keyPackage.leafNode.capabilities, "Capabilities"),
            Self.codable(required, "RequiredCapabilities"),
            Self.codable(senders[1], "ExternalSender"),
            Self.codable(SenderData(leafIndex: LeafIndex(7), generation: 9, reuseGuard: [1, 2, 3, 4]), "SenderData"),
            Self.codable(PreSharedKeyID(kind: .resumption(usage: .application, groupID: [1], epoch: 2), nonce: [3]), "PreSharedKeyID"),
            MutationFuzzTests.Sample(field: "extensions", bytes: { var writer = TLSWriter(); writer.writeVector(extensions); return writer.bytes }(),
                                     roundTrip: { bytes in
                                         var reader = TLSReader(bytes)
                                         let decoded = try reader.readVector(of: Extension.self)
                                         try reader.expectEnd()
                                         var writer = TLSWriter()
                                         writer.writeVector(decoded)
                                         return writer.bytes
                                     }),
        ]
        if case .publicMessage(let message) = commit.message.body {
            samples.append(Self.codable(message.authenticatedContent, "AuthenticatedContent"))
            if case .commit(let body) = message.content.body, let path = body.path { samples.append(Self.codable(path, "UpdatePath")) }
        }
        return samples
    }

    @Test func everyStructureSurvivesTruncationAndMutation() throws {
        var rng = SeededGenerator(seed: 0x57_0C7)
        let samples = try samples()
        #expect(samples.count == 11)
        for sample in samples {
            #expect(MutationFuzzTests.check(sample, sample.bytes, "original"), "\(sample.field) does not round-trip")
            for cut in 0..<sample.bytes.count {
                #expect(!MutationFuzzTests.check(sample, Array(sample.bytes[..<cut]), "cut at \(cut)"), "\(sample.field): prefix of \(cut) bytes decoded")
            }
            #expect(throws: MLSCodecError.trailingBytes(count: 1)) { try sample.roundTrip(sample.bytes + [0]) }
            for _ in 0..<200 {
                var mutated = sample.bytes
                mutated[Int.random(in: 0..<mutated.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                _ = MutationFuzzTests.check(sample, mutated, "flip")
            }
        }
    }

    @Test func externalSenderListRejectsMalformedBytes() throws {
        var writer = TLSWriter()
        writer.writeVector([ExternalSender(signatureKey: [1, 2], credential: .basic(identity: [3]))])
        let list = writer.bytes
        #expect(try ExternalSender.decodeList(list).count == 1)
        for cut in 0..<list.count {
            do {
                _ = try ExternalSender.decodeList(Array(list[..<cut]))
                Issue.record("a prefix of \(cut) bytes decoded")
            } catch {
                #expect(MutationFuzzTests.isTyped(error), "untyped error \(error)")
            }
        }
    }
}
