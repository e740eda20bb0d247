import Crypto
import KithCanonical
import KithFeed

extension FuzzTarget {
    /// One feed line (envelope, self stub or later version): an accepted envelope keeps its bytes.
    static let feedEnvelope = FuzzTarget(name: "feed-envelope", summary: "KithFeed envelope, self-stub and feed-line parsers") { input in
        if case .v1(let envelope)? = try? Envelope.parse(input) {
            FuzzProperty.require(envelope.canonicalBytes == input, "a parsed envelope does not keep its canonical bytes")
        }
        _ = try? FeedEntry.parse(input)
    }

    /// A whole feed file (lines split at newlines) through the chain verifier, as `kith feed verify`
    /// runs it, against the identity key of the published feed vector (so the vector's chain verifies).
    static let feedChain = FuzzTarget(name: "feed-chain", summary: "KithFeed ChainVerifier over a feed file") { input in
        guard let key = FeedFuzzKeys.vectorIdentityKey else { return }
        let lines = input.split(separator: 0x0A, maxSplits: 256, omittingEmptySubsequences: false).map { Array($0) }
        let report = ChainVerifier(identityKey: key).verify(lines: lines)
        FuzzProperty.require(report.accepted + report.foreign <= lines.count, "more lines accepted than given")
    }

    /// Decrypted content under every envelope type the parser knows, plus one it does not.
    static let feedContent = FuzzTarget(name: "feed-content", summary: "KithFeed content parser for every known type") { input in
        let types = Content.knownTypes.sorted() + ["later_type"]
        let type = types[Int(input.first ?? 0) % types.count]
        let bytes = Array(input.dropFirst())
        guard let content = try? Content.parse(bytes, envelopeType: type) else { return }
        if let canonical = try? content.canonicalBytes() {
            let again = try? Content.parse(canonical, envelopeType: type)
            FuzzProperty.require(again == content, "content does not survive its canonical form")
        }
    }

    /// The contacts audience's recipient map (the wrapped keys of a `contacts` envelope).
    static let contactsRecipientMap = FuzzTarget(name: "contacts-recipient-map", summary: "KithFeed contacts-audience recipient map") { input in
        _ = try? ContactsRecipientMap.decode(input)
    }
}

/// Keys the feed targets check against.
enum FeedFuzzKeys {
    /// The identity key of `TestVectors/feed/feed-v1.json`.
    static let vectorIdentityKey: Curve25519.Signing.PublicKey? = {
        guard let raw = try? Base64URL.decode("6e2NaWDmXi0UThtITFIBt6ue7-ge4FYUYUrPpD7w2bo", expectedLength: 32) else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }()
}
