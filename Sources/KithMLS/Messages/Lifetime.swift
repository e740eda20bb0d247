/// The validity window of a KeyPackage leaf, in seconds since the Unix epoch (RFC 9420 §7.2).
public struct Lifetime: Hashable, Sendable, TLSCodable {
    /// First second of validity.
    public var notBefore: UInt64
    /// Last second of validity.
    public var notAfter: UInt64

    /// Creates a window.
    public init(notBefore: UInt64, notAfter: UInt64) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// True when `time` lies inside the window.
    public func contains(_ time: UInt64) -> Bool { notBefore <= time && time <= notAfter }

    /// Encodes two `uint64`.
    public func encode(to writer: inout TLSWriter) {
        writer.writeUInt64(notBefore)
        writer.writeUInt64(notAfter)
    }

    /// Decodes two `uint64`.
    public init(from reader: inout TLSReader) throws {
        notBefore = try reader.readUInt64()
        notAfter = try reader.readUInt64()
    }
}
