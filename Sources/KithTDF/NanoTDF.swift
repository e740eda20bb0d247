import KithCanonical

/// A NanoTDF container: header, payload and an optional signature.
///
/// Parse with ``init(parsing:options:)``, write with ``serialized``; encrypt with
/// ``encrypt(_:to:configuration:)`` and decrypt with ``decrypt(using:)``. The dialect Kith
/// writes is described in `docs/TDF.md`.
public struct NanoTDF: Sendable, Equatable {
    /// The header.
    public private(set) var header: Header
    /// The encrypted payload.
    public private(set) var payload: Payload
    /// The trailing signature, present exactly when ``Header/hasSignature`` is set.
    public private(set) var signature: Signature?

    /// Assembles a NanoTDF from parts, checking that they are consistent and fit their length fields.
    public init(header: Header, payload: Payload, signature: Signature? = nil) throws(NanoTDFError) {
        try header.validate()
        try payload.validate(cipher: header.cipher)
        guard header.hasSignature == (signature != nil) else { throw .signatureMismatch }
        try signature?.validate(curve: header.signatureCurve)
        self.header = header
        self.payload = payload
        self.signature = signature
    }

    /// Reads a complete NanoTDF through a bounded cursor; any malformed byte gives a ``NanoTDFError``.
    public init(parsing bytes: some Collection<UInt8>, options: ReadOptions = ReadOptions()) throws(NanoTDFError) {
        var cursor = NanoTDFCursor(bytes)
        let header = try Header.read(from: &cursor, options: options)
        let payload = try Payload.read(from: &cursor, cipher: header.cipher)
        var signature: Signature?
        if header.hasSignature { signature = try Signature.read(from: &cursor, curve: header.signatureCurve) }
        try cursor.expectEnd()
        try self.init(header: header, payload: payload, signature: signature)
    }

    /// The canonical wire bytes.
    public var serialized: [UInt8] {
        var writer = ByteWriter(capacity: 128 + payload.length)
        header.write(to: &writer)
        payload.write(to: &writer)
        signature?.write(to: &writer)
        return writer.bytes
    }

    /// The bytes a trailing signature covers: header ‖ payload (with its length field).
    public var signedBytes: [UInt8] {
        var writer = ByteWriter(capacity: 128 + payload.length)
        header.write(to: &writer)
        payload.write(to: &writer)
        return writer.bytes
    }

    /// True when `bytes` start like a NanoTDF ("L1L" or "L1M"): what a relay router checks.
    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        guard iterator.next() == 0x4C, iterator.next() == 0x31, let third = iterator.next() else { return false }
        return third == 0x4C || third == 0x4D
    }

    mutating func attach(signature: Signature, curve: Curve) {
        header.hasSignature = true
        header.signatureCurve = curve
        self.signature = signature
    }
}
