import Crypto
import KithCanonical
import KithIdentity
@testable import KithFeed

/// Deterministic identities and raw envelope builders for feed tests.
enum FeedFixtures {
    static let alice = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
    static let bob = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))

    /// The unsigned fields of a valid envelope, as a JSON object that tests can break on purpose.
    static func fields(_ identity: Identity = alice, sequence: Int64 = 0, previous: String? = nil, type: String = "post", audience: String = "self", content: [UInt8] = [1, 2, 3, 4]) -> JSONObject {
        var object = JSONObject()
        object["audience"] = .string(audience)
        object["content_enc"] = .string(Base64URL.encode(content))
        object["feed_id"] = .string(identity.feedID.string)
        object["previous"] = previous.map { .string($0) } ?? .null
        object["sequence"] = .integer(sequence)
        object["timestamp"] = .integer(1_743_678_000)
        object["type"] = .string(type)
        object["version"] = .integer(1)
        return object
    }

    /// Signs any object (even one that breaks the rules) and returns canonical bytes.
    static func signRaw(_ object: JSONObject, with identity: Identity = alice) -> [UInt8] {
        var signed = object
        let signature = try! identity.signingKey.signature(for: CanonicalJSON.serialize(object))
        signed["signature"] = .string(Base64URL.encode(signature))
        return CanonicalJSON.serialize(signed)
    }

    /// A valid chain of `count` envelopes of `identity`.
    static func chain(_ count: Int, identity: Identity = alice, audience: Audience = .contacts) -> [Envelope] {
        var out: [Envelope] = []
        var previous: MessageID?
        for index in 0..<count {
            let envelope = try! Envelope.sign(
                UnsignedEnvelope(sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: previous, type: "post", audience: audience, content: Array("content \(index)".utf8)),
                with: identity
            )
            previous = envelope.messageID
            out.append(envelope)
        }
        return out
    }

    static func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as FeedError {
            return error.code
        } catch {
            return "other: \(error)"
        }
    }
}
