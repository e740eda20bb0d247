/// Accumulates TLS presentation-language bytes (RFC 9420 §2.1) in big-endian order.
public struct TLSWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {}

    /// Creates an empty writer with room for `capacity` bytes, avoiding regrowth when the output size is roughly known.
    public init(reservingCapacity capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends raw bytes without a length prefix.
    public mutating func writeBytes<S: Sequence>(_ data: S) where S.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Appends one byte.
    public mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }

    /// Appends a big-endian `uint16`.
    public mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8)); bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian `uint32`.
    public mutating func writeUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Appends a big-endian `uint64`.
    public mutating func writeUInt64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Appends a minimally encoded variable-length integer (RFC 9420 §2.1.2).
    ///
    /// Values above 2^30 - 1 cannot be represented; the protocol's length bounds keep every caller below it,
    /// and ``TLSWriter/checkedVarInt(_:)`` is available for untrusted sizes.
    public mutating func writeVarInt(_ value: Int) {
        if value < 64 {
            bytes.append(UInt8(value))
        } else if value < 16384 {
            bytes.append(UInt8(0x40 | (value >> 8))); bytes.append(UInt8(truncatingIfNeeded: value))
        } else {
            let clamped = UInt32(clamping: value) & MLSLimits.maxVarIntValue
            writeUInt32(clamped | 0x8000_0000)
        }
    }

    /// Validates that `value` fits a variable-length integer.
    public static func checkedVarInt(_ value: Int) throws -> Int {
        guard value >= 0, value <= Int(MLSLimits.maxVarIntValue) else { throw MLSCodecError.varIntTooLarge(value: value) }
        return value
    }

    /// Appends an `opaque data<V>` vector.
    public mutating func writeOpaque<S: Collection>(_ data: S) where S.Element == UInt8 {
        writeVarInt(data.count)
        bytes.append(contentsOf: data)
    }

    /// Appends a vector whose body is produced by `body` (the length prefix is computed afterwards).
    ///
    /// The body is written in place and its prefix inserted before it: a nested vector costs a move of its bytes, not
    /// a buffer of its own (a group state's tree is vectors within vectors).
    public mutating func writeVector(_ body: (inout TLSWriter) -> Void) {
        let start = bytes.count
        body(&self)
        insertVarIntPrefix(at: start)
    }

    /// Drops what was written from `start` on (a vector whose body failed).
    mutating func discard(from start: Int) { bytes.removeSubrange(start...) }

    /// Inserts at `start` the variable-length integer of the count of bytes written since `start`.
    mutating func insertVarIntPrefix(at start: Int) {
        let length = bytes.count - start
        if length < 64 {
            bytes.insert(UInt8(length), at: start)
        } else if length < 16384 {
            let prefix = (UInt8(0x40 | (length >> 8)), UInt8(truncatingIfNeeded: length))
            withUnsafeBytes(of: prefix) { bytes.insert(contentsOf: $0, at: start) }
        } else {
            let value = (UInt32(clamping: length) & MLSLimits.maxVarIntValue) | 0x8000_0000
            withUnsafeBytes(of: value.bigEndian) { bytes.insert(contentsOf: $0, at: start) }
        }
    }

    /// Appends a vector of ``TLSEncodable`` elements.
    public mutating func writeVector<T: TLSEncodable>(_ elements: [T]) {
        writeVector { inner in for element in elements { element.encode(to: &inner) } }
    }

    /// Appends an `optional<T>`.
    public mutating func writeOptional<T: TLSEncodable>(_ value: T?) {
        if let value { writeUInt8(1); value.encode(to: &self) } else { writeUInt8(0) }
    }
}
