import KithFeed
import KithIdentity

/// What a feed file's refused lines were, kept bounded however many there are: the first
/// ``limit`` by line number in full, and a count per reason code for all of them.
///
/// `kith feed verify` and `kith feed import` print the kept ones and summarise the rest, so a
/// file of a million bad lines prints a hundred lines, not a million.
public struct FeedFileRejections: Sendable {
    /// How many rejections are kept in full.
    public static let defaultLimit = 100

    /// One refused line.
    public struct Entry: Sendable, Equatable {
        /// 1-based line number.
        public let line: Int
        /// The entry's sequence, when it could be read.
        public let sequence: UInt32?
        /// Stable reason code (`FeedError.code`, or `fork`).
        public let code: String
        /// Human explanation (may contain text from the file: escape it before printing).
        public let message: String
    }

    /// The most kept in full.
    public let limit: Int
    /// The kept rejections, ordered by line.
    public private(set) var kept: [Entry] = []
    /// Every rejection, per reason code.
    public private(set) var countsByCode: [String: Int] = [:]
    /// How many were refused in all.
    public private(set) var total = 0

    /// Creates an empty log keeping at most `limit` rejections in full.
    public init(limit: Int = defaultLimit) {
        self.limit = max(0, limit)
    }

    /// How many were counted but not kept.
    public var omitted: Int { total - kept.count }

    /// Records a rejection.
    public mutating func record(line: Int, sequence: UInt32?, code: String, message: String) {
        total += 1
        countsByCode[code, default: 0] += 1
        guard limit > 0 else { return }
        if kept.count == limit, let last = kept.last, last.line <= line { return }
        let entry = Entry(line: line, sequence: sequence, code: code, message: message)
        let index = kept.firstIndex { $0.line > line } ?? kept.count
        kept.insert(entry, at: index)
        if kept.count > limit { kept.removeLast() }
    }

    /// Records a feed rule violation.
    public mutating func record(line: Int, sequence: UInt32?, _ error: FeedError) {
        record(line: line, sequence: sequence, code: error.code, message: error.description)
    }
}

/// The outcome of importing a feed file (``Account/Feed/importFile(_:identityKey:progress:)``).
public struct FeedFileImport: Sendable {
    /// The feed imported.
    public var feed: FeedID
    /// Non-empty lines read.
    public var lines = 0
    /// Entries verified and linked.
    public var stored = 0
    /// Entries verified but held ahead of a gap.
    public var pending = 0
    /// Entries already held.
    public var duplicates = 0
    /// Later-version entries kept for relay only.
    public var relayOnly = 0
    /// Pending entries this import linked into the chain.
    public var linkedFromPending = 0
    /// Refused lines: forks, rule violations, lines of other feeds, oversized lines.
    public var rejections = FeedFileRejections()

    /// True when no line was refused.
    public var isClean: Bool { rejections.total == 0 }
}
