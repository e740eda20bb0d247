/// The line rule of exports (docs/FEED-FORMAT.md section 6).
public enum FeedLine {
    /// True when `line` is an entry. A line of zero bytes is not an entry: the verifier and
    /// `kith feed import` skip it alike (an export ends with `\n`, and a blank line is harmless).
    public static func isEntry(_ line: [UInt8]) -> Bool { !line.isEmpty }
}
