import Crypto
import KithIdentity

/// Verifies an exported feed (one entry per line, oldest first) against an identity key,
/// without any stored state: the engine of `kith feed verify`.
///
/// Rules: every entry belongs to the key's feed; sequences run 0, 1, 2, … without gaps; every
/// envelope is canonical, well formed and validly signed; every `previous` equals the id of the
/// entry before it; self stubs are verified like envelopes (signature and `previous`).
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

    /// Creates a verifier for the feed of `identityKey`.
    public init(identityKey: Curve25519.Signing.PublicKey) {
        key = identityKey
        feedID = FeedID(identityKey: identityKey)
    }

    /// Verifies the lines of an export (empty lines are ignored).
    public func verify(lines: [[UInt8]]) -> Report {
        var report = Report()
        var expected: UInt32 = 0
        var lastID: MessageID?

        func reject(_ line: Int, _ sequence: UInt32?, _ error: FeedError) {
            report.rejections.append(Rejection(line: line, sequence: sequence, code: error.code, message: error.description))
        }

        for (index, bytes) in lines.enumerated() where !bytes.isEmpty {
            let line = index + 1
            let entry: FeedEntry
            do {
                entry = try FeedEntry.parse(bytes)
            } catch {
                reject(line, nil, error)
                lastID = MessageID(hashing: bytes)
                expected &+= 1
                continue
            }
            let sequence = entry.sequence
            if let sequence, sequence != expected {
                reject(line, sequence, .sequenceGap(expected: expected, found: sequence))
            }
            let signed: (sequence: UInt32, previous: MessageID?)?
            do {
                switch entry {
                case .foreign:
                    report.foreign += 1
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
                if signed != nil { report.accepted += 1 }
            } catch let error as FeedError {
                reject(line, sequence, error)
            } catch {
                reject(line, sequence, .malformedJSON("\(error)"))
            }
            lastID = entry.messageID
            if let sequence { expected = sequence &+ 1 } else { expected &+= 1 }
        }
        return report
    }
}
