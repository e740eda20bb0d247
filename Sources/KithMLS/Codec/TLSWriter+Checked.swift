/// Length-checked writes for structures that may grow beyond what a variable-length vector header can express.
extension TLSWriter {
    /// Appends a vector whose body is produced by `body`, throwing ``MLSCodecError/varIntTooLarge(value:)`` instead of
    /// writing a wrong header when the body exceeds 2^30 - 1 bytes.
    mutating func writeCheckedVector(_ body: (inout TLSWriter) throws -> Void) throws {
        var inner = TLSWriter()
        try body(&inner)
        _ = try TLSWriter.checkedVarInt(inner.bytes.count)
        writeOpaque(inner.bytes)
    }
}
