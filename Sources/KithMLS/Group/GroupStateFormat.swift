/// The envelope of a serialized ``GroupState``: `uint8 version; opaque body<V>; opaque checksum[32]`, where the
/// checksum is SHA-256 of every byte before it.
///
/// The checksum detects storage corruption (any changed byte fails it) before the body is parsed; it is no protection
/// against tampering, which the application's sealing at rest provides.
enum GroupStateFormat {
    /// The only format this implementation writes and reads. Version 1 was an earlier layout without the envelope and
    /// its checksum; it is no longer read.
    static let version: UInt8 = 2
    /// Length of the trailing checksum.
    static let checksumLength = 32

    /// Wraps an encoded body with the version byte (a whole state's unless told) and the checksum.
    static func seal(body: [UInt8], version: UInt8 = version) throws -> [UInt8] {
        var writer = TLSWriter(reservingCapacity: body.count + checksumLength + 5)
        writer.writeUInt8(version)
        try writer.writeCheckedVector { $0.writeBytes(body) }
        let checksum = HashAlgorithm.sha256.hash(writer.bytes)
        writer.writeBytes(checksum)
        return writer.bytes
    }

    /// Checks the version, the framing and the checksum of `bytes`, and returns the body.
    ///
    /// `version` is the format expected (a whole state's by default; the ratchets part has its own).
    static func open(_ bytes: [UInt8], version: UInt8 = version) throws -> [UInt8] {
        var reader = TLSReader(bytes)
        let found = try reader.readUInt8()
        guard found == version else {
            throw MLSCodecError.unknownValue(field: "serialized GroupState format version (this build reads \(version))", value: UInt64(found))
        }
        let body = try reader.readOpaque()
        let covered = reader.offset
        let checksum = try reader.readBytes(checksumLength)
        try reader.expectEnd()
        guard HashAlgorithm.sha256.hash(Array(bytes[..<covered])) == checksum else {
            throw MLSCodecError.invalidValue(field: "serialized GroupState", reason: "checksum mismatch: the stored state is corrupted")
        }
        return body
    }
}
