/// One line of a feed file (as `FeedLineReader` yields it), and the line rule of exports
/// (docs/FEED-FORMAT.md section 6).
public struct FeedLine: Sendable, Equatable {
    /// 1-based line number in the input.
    public let number: Int
    /// The line's bytes, without its line ending; empty when the line was too long.
    public let bytes: [UInt8]
    /// The full length of a line longer than the reader's limit (its bytes were not kept).
    public let oversizedLength: Int?

    /// Creates a line.
    public init(number: Int, bytes: [UInt8], oversizedLength: Int? = nil) {
        self.number = number
        self.bytes = bytes
        self.oversizedLength = oversizedLength
    }

    /// True when `line` is an entry. A line of zero bytes is not an entry: the verifier and
    /// `kith feed import` skip it alike (an export ends with `\n`, and a blank line is harmless).
    public static func isEntry(_ line: [UInt8]) -> Bool { !line.isEmpty }

    /// Why the line cannot be an entry, if it cannot (it is longer than any envelope).
    public var lengthError: FeedError? { oversizedLength.map { .tooLarge($0) } }
}
