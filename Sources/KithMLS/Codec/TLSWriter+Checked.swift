/// Length-checked writes for structures that may grow beyond what a variable-length vector header can express.
extension TLSWriter {
    /// Appends a vector whose body is produced by `body`, throwing ``MLSCodecError/varIntTooLarge(value:)`` instead of
    /// writing a wrong header when the body exceeds 2^30 - 1 bytes.
    mutating func writeCheckedVector(_ body: (inout TLSWriter) throws -> Void) throws {
        let start = bytes.count
        do {
            try body(&self)
            _ = try TLSWriter.checkedVarInt(bytes.count - start)
        } catch {
            // Nothing of a vector that failed stays written.
            discard(from: start)
            throw error
        }
        insertVarIntPrefix(at: start)
    }
}
