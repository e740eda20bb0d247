import Crypto
import KithCanonical

/// The random 16-byte identifier of one pool exchange; the stored pools carry it, so a retry
/// (a new exchange) replaces the pools of an interrupted one.
public struct PoolExchangeID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's size.
    public static let size = 16
    /// The identifier bytes.
    public let bytes: [UInt8]

    /// A fresh random identifier.
    public static func random() -> PoolExchangeID {
        PoolExchangeID(validated: SymmetricKey(size: .init(bitCount: size * 8)).withUnsafeBytes { Array($0) })
    }

    /// Wraps 16 bytes (for example read back from storage); nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.size else { return nil }
        self.bytes = bytes
    }

    init(validated bytes: [UInt8]) { self.bytes = bytes }

    /// Lowercase hex.
    public var description: String { Hex.encode(bytes) }
}
