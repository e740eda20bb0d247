import Crypto
import KithIdentity

/// Verifies an exported feed (one entry per line, oldest first) against an identity key,
/// without any stored state: the engine of `kith feed verify`.
///
/// Rules: every entry belongs to the key's feed (a line of any other feed is rejected with
/// `feed_id_mismatch`); sequences run 0, 1, 2, … without gaps; every envelope is canonical, well
/// formed and validly signed; every `previous` equals the id of the entry before it; self stubs
/// are verified like envelopes (signature and `previous`). A line of zero bytes is not an entry
/// and is skipped (docs/FEED-FORMAT.md section 6).
///
/// Feed it line by line with ``consume(_:number:)`` (memory stays flat in the input's size), or
/// all at once with ``verify(lines:)``.
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

        /// Creates a rejection.
        public init(line: Int, sequence: UInt32?, code: String, message: String) {
            self.line = line
            self.sequence = sequence
            self.code = code
            self.message = message
        }
    }

    /// The counts of a verification so far.
    public struct Summary: Sendable, Equatable {
        /// Entries authenticated with the key (envelopes and signed self stubs).
        public var accepted = 0
        /// Entries of a later envelope version of this feed: kept for relay, not verified.
        public var foreign = 0
        /// Entries rejected.
        public var rejected = 0
    }

    /// The outcome of a verification.
    public struct Report: Sendable {
        /// Entries that verified (envelopes and signed self stubs).
        public var accepted = 0
        /// Entries of a later envelope version: kept for relay, not verified.
        public var foreign = 0
        /// Every rejected entry, in input order.
        public var rejections: [Rejection] = []
        /// True when nothing was rejected.
        public var isValid: Bool { rejections.isEmpty }
    }

    let key: Curve25519.Signing.PublicKey
    let feedID: FeedID
    /// The counts so far (rejections are not accumulated by ``consume(_:number:)``).
    public private(set) var summary = Summary()
    private var expected: UInt32 = 0
    private var lastID: MessageID?

    /// Creates a verifier for the feed of `identityKey`.
    public init(identityKey: Curve25519.Signing.PublicKey) {
        key = identityKey
        feedID = FeedID(identityKey: identityKey)
    }

    /// Verifies the lines of an export (lines of zero bytes are skipped).
    public func verify(lines: [[UInt8]]) -> Report {
        var verifier = self
        var report = Report()
        for (index, bytes) in lines.enumerated() {
            report.rejections.append(contentsOf: verifier.consume(bytes, number: index + 1))
        }
        report.accepted = verifier.summary.accepted
        report.foreign = verifier.summary.foreign
        return report
    }

    /// Feeds one line (1-based `number`); returns the rejections this line produced (usually 0 or 1).
    public mutating func consume(_ line: [UInt8], number: Int) -> [Rejection] {
        guard !line.isEmpty else { return [] }
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
        let entryFeed: FeedID? = switch entry {
        case .envelope(let envelope): envelope.feedID
        case .stub(let stub): stub.feedID
        case .foreign(let foreign): foreign.feedID
        }
        if let entryFeed, entryFeed != feedID {
            // Another feed's line is not part of this chain: it neither advances nor breaks it.
            reject(entry.sequence, .feedIDMismatch(expected: feedID.string, found: entryFeed.string))
            return rejections
        }
        let sequence = entry.sequence
        if let sequence, sequence != expected {
            reject(sequence, .sequenceGap(expected: expected, found: sequence))
        }
        do {
            let signed: (sequence: UInt32, previous: MessageID?)?
            switch entry {
            case .foreign:
                summary.foreign += 1
                signed = nil
            case .stub(let stub):
                try stub.verifySignature(with: key)
                signed = (stub.sequence, stub.previous)
            case .envelope(let envelope):
                try envelope.verifySignature(with: key)
                signed = (envelope.sequence, envelope.previous)
            }
            if let signed, signed.sequence > 0, let lastID, signed.previous != lastID {
                throw FeedError.chainBroken(sequence: signed.sequence, expected: lastID.string, found: signed.previous?.string ?? "null")
            }
            if signed != nil { summary.accepted += 1 }
        } catch let error as FeedError {
            reject(sequence, error)
        } catch {
            reject(sequence, .malformedJSON("\(error)"))
        }
        lastID = entry.messageID
        if let sequence { expected = sequence &+ 1 } else { expected &+= 1 }
        return rejections
    }
}
