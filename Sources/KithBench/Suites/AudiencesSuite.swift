import Crypto
import Foundation
import Kith
import KithFeed
import KithIdentity

/// Suite `audiences`: the cost and size of a 280-character `contacts` post for 1, 10, 100 and
/// 1,000 recipients (v1 recipient map: one ciphertext, one 40-byte blinded slot per recipient).
///
/// `encrypt` covers sealing the content for every recipient and signing the envelope; `decrypt`
/// is one recipient finding its slot and opening the content. Targets (issue #6): 1,000
/// recipients encrypt in under 50 ms on one core; the envelope stays under 100 KB.
enum AudiencesSuite: BenchSuite {
    static let name = "audiences"

    static func run(report: (BenchFigure) -> Void) async throws {
        let author = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
        let plaintext = try Content.post(Post(body: String(repeating: "k", count: 280))).canonicalBytes()
        report(BenchFigure(name: "audiences.post_plaintext_bytes", value: Double(plaintext.count), unit: "bytes"))
        // Pairwise contacts keys are derived once at contact-add time; here they are random keys.
        let allKeys = (0..<1_000).map { _ in SymmetricKey(size: .bits256) }
        let previous = try MessageID(String(repeating: "A", count: 43))
        for count in [1, 10, 100, 1_000] {
            let keys = Array(allKeys.prefix(count))
            var envelope: Envelope?
            let encryptSeconds = try await median(runs: count >= 1_000 ? 21 : 51) {
                let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: 7, feedID: author.feedID)
                envelope = try Envelope.sign(
                    UnsignedEnvelope(sequence: 7, timestamp: 1_790_000_000, previous: previous, type: "post", audience: .contacts, content: sealed),
                    with: author
                )
            }
            guard let envelope else { throw BenchFailure("no envelope") }
            let content = try envelope.contentBytes()
            let reader = keys[keys.count - 1]
            let decryptSeconds = try await median(runs: 51) {
                let opened = try ContactsAudienceCipher.open(content, keys: [reader], sequence: 7, feedID: author.feedID)
                guard opened.count == plaintext.count else { throw BenchFailure("wrong plaintext") }
            }
            report(BenchFigure(name: "audiences.contacts_encrypt_ms.\(count)", value: (encryptSeconds * 1e6).rounded() / 1e3, unit: "ms"))
            report(BenchFigure(name: "audiences.contacts_decrypt_ms.\(count)", value: (decryptSeconds * 1e6).rounded() / 1e3, unit: "ms"))
            report(BenchFigure(name: "audiences.contacts_envelope_bytes.\(count)", value: Double(envelope.canonicalBytes.count), unit: "bytes"))
        }

        // End to end through the facade: an account with 1,000 contacts posts to them (sealed keys
        // read from SQLite, map built, envelope signed, stored with its sealed plaintext).
        let account = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
        for index in 0..<1_000 {
            let contact = try Identity(seed: try Seed(bytes: [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 0x42, count: 30)))
            try await account.contacts.add(card: try ContactCard.create(identity: contact, displayName: "", createdAt: 1_790_000_000))
        }
        let body = String(repeating: "k", count: 280)
        let publishSeconds = try await median(runs: 11) { try await account.publishing.post(body, audience: .contacts) }
        report(BenchFigure(name: "audiences.account_post_ms.1000", value: (publishSeconds * 1e6).rounded() / 1e3, unit: "ms"))
    }

    /// The median wall time of `runs` executions of `body`, in seconds.
    static func median(runs: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            try await body()
            let elapsed = clock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return times.sorted()[runs / 2]
    }
}
