/// Resource bounds applied while parsing untrusted JSON, plus the numeric bounds of Kith's JSON subset.
public struct JSONLimits: Sendable, Hashable {
    /// Largest accepted input, in bytes.
    public var maxBytes: Int
    /// Deepest accepted nesting of arrays and objects (a top-level container is depth 1).
    ///
    /// The parser recurses once per level, so keep this small (hundreds at most) on threads with small stacks.
    public var maxDepth: Int
    /// Longest accepted decoded string or key, in UTF-8 bytes.
    public var maxStringBytes: Int
    /// Most entries accepted in one array or object.
    public var maxContainerElements: Int
    /// Most values (scalars and containers, keys excluded) accepted in one document.
    public var maxTotalValues: Int

    /// The limits Kith uses for protocol messages.
    public static let `default` = JSONLimits(
        maxBytes: 1_048_576,
        maxDepth: 32,
        maxStringBytes: 262_144,
        maxContainerElements: 10_000,
        maxTotalValues: 100_000
    )

    /// The largest integer magnitude in Kith's subset: 2^53 − 1 (I-JSON / RFC 7493 safe range).
    public static let maxSafeInteger: Int64 = 9_007_199_254_740_991

    /// Creates custom limits.
    public init(maxBytes: Int, maxDepth: Int, maxStringBytes: Int, maxContainerElements: Int, maxTotalValues: Int) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxContainerElements = maxContainerElements
        self.maxTotalValues = maxTotalValues
    }
}
