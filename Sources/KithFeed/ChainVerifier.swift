import Crypto
import KithIdentity

/// Verifies an exported feed (one entry per line, oldest first) against an identity key,
/// without any stored state: the engine of `kith feed verify`.
///
/// Rules: every entry belongs to the key's feed; sequences run 0, 1, 2, … without gaps; every
/// envelope is canonical, well formed and validly signed; every `previous` equals the id of the
/// entry before it; a self stub is accepted when the next envelope's `previous` anchors it.
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
        /// Entries that verified.
        public var accepted = 0
        /// Entries of a later envelope version: kept for relay, not verified.
        public var foreign = 0
        /// A trailing stub that no later message anchors yet.
        public var unanchoredTip: UInt32?
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
        var openStub: (line: Int, stub: SelfStub)?

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
            switch entry {
            case .foreign:
                report.foreign += 1
                if let pending = openStub {
                    // A later-version envelope cannot anchor a stub with v1 logic.
                    reject(pending.line, pending.stub.sequence, .invalidPrevious("stub not anchored by a verifiable message"))
                    openStub = nil
                }
            case .stub(let stub):
                if stub.feedID != feedID {
                    reject(line, stub.sequence, .feedIDMismatch(expected: feedID.string, found: stub.feedID.string))
                } else {
                    openStub = (line, stub)
                }
            case .envelope(let envelope):
                var ok = true
                do {
                    try envelope.verifySignature(with: key)
                } catch {
                    reject(line, envelope.sequence, error)
                    ok = false
                }
                if ok, envelope.sequence > 0, let lastID, envelope.previous != lastID {
                    reject(line, envelope.sequence, .chainBroken(sequence: envelope.sequence, expected: lastID.string, found: envelope.previous?.string ?? "null"))
                    ok = false
                }
                if let pending = openStub {
                    if ok { report.accepted += 1 } else {
                        reject(pending.line, pending.stub.sequence, .invalidPrevious("stub not anchored: the next message does not verify"))
                    }
                    openStub = nil
                }
                if ok { report.accepted += 1 }
            }
            lastID = entry.messageID
            if let sequence { expected = sequence &+ 1 } else { expected &+= 1 }
        }
        if let pending = openStub { report.unanchoredTip = pending.stub.sequence }
        return report
    }
}
