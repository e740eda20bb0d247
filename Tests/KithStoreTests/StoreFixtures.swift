import Crypto
import KithCanonical
import KithFeed
import KithIdentity
@testable import KithStore

/// Identities, chains and a pass-through decryptor for store tests.
enum StoreFixtures {
    static let alice = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
    static let bob = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))

    /// Treats `content_enc` as the plaintext itself (tests only).
    struct PlainDecryptor: ContentDecryptor {
        func decrypt(_ envelope: Envelope) throws(FeedError) -> [UInt8]? { try envelope.contentBytes() }
    }

    static func store() throws -> FeedStore {
        let store = try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256))
        try store.follow(identityKey: alice.publicKeys.identityKey)
        return store
    }

    /// A chain whose content is plaintext post JSON (use with PlainDecryptor).
    static func chain(_ count: Int, identity: Identity = alice, startingAt start: Int = 0, previous: MessageID? = nil, audience: Audience = .contacts, body: (Int) -> Content = { .post(Post(body: "post \($0)")) }) -> [Envelope] {
        var out: [Envelope] = []
        var last = previous
        for index in start..<(start + count) {
            let content = body(index)
            let envelope = try! Envelope.sign(
                UnsignedEnvelope(sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last, type: content.type, audience: audience, content: try! content.canonicalBytes()),
                with: identity
            )
            last = envelope.messageID
            out.append(envelope)
        }
        return out
    }

    static func lines(_ envelopes: [Envelope]) -> [[UInt8]] { envelopes.map(\.canonicalBytes) }
}

extension IngestOutcome {
    var label: String {
        switch self {
        case .stored: "stored"
        case .pending: "pending"
        case .duplicate: "duplicate"
        case .storedForRelay: "relay"
        case .fork: "fork"
        case .rejected(_, let error): "rejected:\(error.code)"
        }
    }
}
