import Crypto
import KithIdentity

/// Verifies an exported feed (one entry per line, oldest first) against an identity key,
/// without any stored state: the engine of `kith feed verify`.
///
/// Rules (signatures: ``ChainRules``, shared with ingest): every entry belongs to the key's feed (`feed_id_mismatch` otherwise, for later-version
/// lines too); sequences run 0, 1, 2, … without gaps; every envelope is canonical, well formed and
/// validly signed; every `previous` equals the id of the entry before it; self stubs are verified
/// like envelopes (signature and `previous`). A line of zero bytes is not an entry and is skipped
/// (``FeedLine/isEntry(_:)``).
///
/// Use ``verify(lines:)`` for a whole export, or ``consume(_:number:)`` line by line to stream one.
public struct ChainVerifier: Sendable {
    /// One rejected entry.
    public struct Rejection: Sendable, Equatable {
        /// 1-based line number in the input.
        public let line: Int
        /// The entry's sequence, when it could be read.
        public let sequence: UInt32?
        /// Stable reason code (see ``FeedError/code``).
        public let code: String
        /// Human explanation.
        public let message: String
    }

    /// The counts of a verification so far.
    public struct Summary: Sendable, Equatable {
        /// Authenticated entries (envelopes and signed self stubs whose line produced no rejection).
        public var accepted = 0
        /// Entries of a later envelope version of this feed: kept for relay, not verified.
        public var foreign = 0
        /// Rejections produced.
        public var rejected = 0
    }

    /// The outcome of a verification.
    public struct Report: Sendable {
        /// Authenticated entries (envelopes and signed self stubs whose line produced no rejection).
        public var accepted = 0
        /// Entries of a later envelope version: kept for relay, not verified.
        public var foreign = 0
        /// Every rejected entry, in input order.
        public var rejections: [Rejection] = []
        /// True when nothing was rejected.
        public var isValid: Bool { rejections.isEmpty }
    }

    /// The keys learned so far (the original one, then verified rotations of this feed).
    private var keys: FeedKeyHistory
    let feedID: FeedID
    /// Opens an envelope's content when the caller can (a contact verifying a feed); nil: none.
    private let reader: (@Sendable (Envelope) -> [UInt8]?)?
    /// The sequence the next entry should have.
    private var expected: UInt32 = 0
    /// The id of the entry on the previous (non-empty) line.
    private var lastID: MessageID?
    /// The counts so far (rejections are not accumulated by ``consume(_:number:)``; ``verify(lines:)`` collects them).
    public private(set) var summary = Summary()

    /// Creates a verifier for the feed of `identityKey` (the feed's original key).
    ///
    /// Key rotations are learned from the feed's own `key_rotation` entries, by the rules ingest
    /// uses (``ChainRules``). Their content goes to the contacts audience, so a verifier without
    /// `reader` cannot learn the new key: entries signed after such a rotation are rejected with
    /// `rotated_key_unknown` (ingest without the contacts key gives the same verdict).
    ///
    /// - Parameter reader: returns the plaintext content of an envelope this caller can read
    ///   (nil when it cannot); only `key_rotation` entries are opened.
    public init(identityKey: Curve25519.Signing.PublicKey, reader: (@Sendable (Envelope) -> [UInt8]?)? = nil) {
        keys = FeedKeyHistory(original: identityKey)
        feedID = FeedID(identityKey: identityKey)
        self.reader = reader
    }

    /// Verifies the lines of an export (zero-byte lines are skipped).
    public func verify(lines: [[UInt8]]) -> Report {
        var verifier = self
        var rejections: [Rejection] = []
        for (index, bytes) in lines.enumerated() {
            rejections += verifier.consume(bytes, number: index + 1)
        }
        return Report(accepted: verifier.summary.accepted, foreign: verifier.summary.foreign, rejections: rejections)
    }

    /// Feeds one line (1-based `number`); returns the rejections this line produced (usually 0 or 1).
    public mutating func consume(_ line: [UInt8], number: Int) -> [Rejection] {
        guard FeedLine.isEntry(line) else { return [] }
        var rejections: [Rejection] = []
        func reject(_ sequence: UInt32?, _ error: FeedError) {
            rejections.append(Rejection(line: number, sequence: sequence, code: error.code, message: error.description))
        }
        defer { summary.rejected += rejections.count }

        let entry: FeedEntry
        do {
            entry = try FeedEntry.parse(line)
        } catch {
            reject(nil, error)
            lastID = MessageID(hashing: line)
            expected &+= 1
            return rejections
        }
        let sequence = entry.sequence
        if case .foreign = entry, let sequence, sequence != expected {
            reject(sequence, .sequenceGap(expected: expected, found: sequence))
        }
        var authenticated = false
        do {
            switch entry {
            case .foreign(let foreign):
                if let other = foreign.feedID, other != feedID {
                    throw FeedError.feedIDMismatch(expected: feedID.string, found: other.string)
                }
                summary.foreign += 1
            case .stub(let stub):
                let placed = place(stub.sequence, stub.previous, stub.messageID, isEnvelope: false)
                try ChainRules.verify(stub, keys: keys)
                try placed.get()
                authenticated = true
            case .envelope(let envelope):
                let placed = place(envelope.sequence, envelope.previous, envelope.messageID, isEnvelope: true)
                try ChainRules.verify(envelope, keys: keys)
                try placed.get()
                authenticated = true
                if envelope.type == ChainRules.keyRotationType {
                    let content = reader?(envelope).flatMap { try? Content.parse($0, envelopeType: envelope.type) }
                    ChainRules.learn(from: envelope, content: content, into: &keys)
                }
            }
        } catch let error as FeedError {
            reject(sequence, error)
        } catch {
            reject(sequence, .malformedJSON("\(error)"))
        }
        if authenticated, rejections.isEmpty { summary.accepted += 1 }
        lastID = entry.messageID
        if let sequence { expected = sequence &+ 1 } else { expected &+= 1 }
        return rejections
    }

    /// Where a signed entry falls in the export, by the placement rule ingest uses
    /// (``ChainRules/place(sequence:previous:id:isEnvelope:head:held:)``). An export is one chain
    /// read in order, so this verifier knows only its head: an entry ahead of it or behind it is
    /// a gap (ingest would hold it), and a `previous` that does not name the head is a broken link
    /// (ingest would record fork evidence).
    private func place(_ sequence: UInt32, _ previous: MessageID?, _ id: MessageID, isEnvelope: Bool) -> Result<Void, FeedError> {
        let head = lastID.map { (sequence: expected &- 1, messageID: $0) }
        switch ChainRules.place(sequence: sequence, previous: previous, id: id, isEnvelope: isEnvelope, head: head, held: nil) {
        case .link, .duplicate, .upgradeSelfStub:
            return .success(())
        case .ahead(let next), .behind(let next):
            return .failure(.sequenceGap(expected: next, found: sequence))
        case .brokenLink(let headID), .conflictsWithHeld(let headID):
            return .failure(.chainBroken(sequence: sequence, expected: headID.string, found: previous?.string ?? "null"))
        }
    }
}
