import KithCanonical

extension NanoTDF {
    /// The optional trailing signature: the creator's compressed public key and a fixed-size `r ‖ s`
    /// ECDSA-SHA256 signature over header and payload (payload including its length field).
    public struct Signature: Sendable, Equatable {
        /// The signer's compressed public key on the header's signature curve.
        public var publicKey: [UInt8]
        /// The fixed-size `r ‖ s`.
        public var rs: [UInt8]

        /// Creates a signature section from its parts.
        public init(publicKey: [UInt8], rs: [UInt8]) {
            self.publicKey = publicKey
            self.rs = rs
        }

        func write(to writer: inout ByteWriter) {
            writer.write(bytes: publicKey)
            writer.write(bytes: rs)
        }

        static func read(from cursor: inout NanoTDFCursor, curve: Curve) throws(NanoTDFError) -> Signature {
            let key = try curve.readCompressedKey(from: &cursor, field: "signature public key")
            let rs = try cursor.read(2 * curve.coordinateSize, "signature r and s")
            return Signature(publicKey: key, rs: rs)
        }

        func validate(curve: Curve) throws(NanoTDFError) {
            guard publicKey.count == curve.compressedKeySize else { throw .invalidPublicKey(field: "signature public key") }
            guard rs.count == 2 * curve.coordinateSize else {
                throw .truncated(field: "signature r and s", needed: 2 * curve.coordinateSize, available: rs.count, offset: 0)
            }
        }
    }
}
