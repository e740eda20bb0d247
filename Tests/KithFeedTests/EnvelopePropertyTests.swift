import KithCanonical
import KithIdentity
import PropertyBased
import Testing
@testable import KithFeed

@Suite struct EnvelopePropertyTests {
    typealias F = FeedFixtures

    @Test func arbitraryPostsSignParseAndVerify() async {
        await propertyCheck(count: 200, input: Gen.uint32(in: 0x20...0x10FFFF).array(of: 0...300).map { values in String(String.UnicodeScalarView(values.compactMap { Unicode.Scalar($0) })) }, Gen.uint32(in: 1...0xFFFF_FFFE)) { body, sequence in
            let content = (try? Content.post(Post(body: body)).canonicalBytes()) ?? []
            let previous = MessageID(hashing: Array(body.utf8))
            guard let envelope = try? Envelope.sign(UnsignedEnvelope(sequence: sequence, timestamp: Int64(sequence), previous: previous, type: "post", audience: .contacts, content: content), with: F.alice) else {
                Issue.record("signing failed")
                return
            }
            let parsed = try? Envelope.parseV1(envelope.canonicalBytes)
            #expect(parsed == envelope)
            #expect(parsed?.signingBytes() == CanonicalJSON.serialize(envelope.canonicalObject().removing("signature")))
            #expect((try? parsed?.verifySignature(with: F.alice.publicKeys.identityKey)) != nil)
            #expect(CanonicalJSON.serialize(try! CanonicalJSON.parse(envelope.canonicalBytes)) == envelope.canonicalBytes)
            #expect((try? Content.parse(content, envelopeType: "post")) == .post(Post(body: body)))
        }
    }

    @Test func everySingleByteFlipIsRejectedOrFailsVerification() async {
        let envelope = F.chain(1)[0]
        await propertyCheck(count: 300, input: Gen.int(in: 0...(envelope.canonicalBytes.count - 1)), Gen.uint8(in: 1...255)) { index, mask in
            var bytes = envelope.canonicalBytes
            bytes[index] ^= mask
            guard let parsed = try? Envelope.parseV1(bytes) else { return }
            #expect((try? parsed.verifySignature(with: F.alice.publicKeys.identityKey)) == nil)
        }
    }
}
