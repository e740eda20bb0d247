/// Appends big-endian integers and raw bytes: the writing half of ``ByteReader``.
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func write(_ value: UInt8) { bytes.append(value) }

    /// Appends a big-endian 16-bit integer.
    public mutating func write(_ value: UInt16) { writeBigEndian(UInt64(value), width: 2) }

    /// Appends a big-endian 32-bit integer.
    public mutating func write(_ value: UInt32) { writeBigEndian(UInt64(value), width: 4) }

    /// Appends a big-endian 64-bit integer.
    public mutating func write(_ value: UInt64) { writeBigEndian(value, width: 8) }

    /// Appends raw bytes.
    public mutating func write<Bytes: Sequence>(bytes other: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    private mutating func writeBigEndian(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
