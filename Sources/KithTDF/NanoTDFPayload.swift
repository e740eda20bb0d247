import KithCanonical

extension NanoTDF {
    /// The payload: a 3-byte IV, the AES-256-GCM ciphertext and its (possibly truncated) tag.
    public struct Payload: Sendable, Equatable {
        /// The 3-byte IV; the GCM nonce is `00×9 ‖ iv`.
        public var iv: [UInt8]
        /// The ciphertext, as long as the plaintext.
        public var ciphertext: [UInt8]
        /// The GCM tag, as long as the header's cipher says.
        public var tag: [UInt8]

        /// Creates a payload from its parts.
        public init(iv: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
            self.iv = iv
            self.ciphertext = ciphertext
            self.tag = tag
        }

        /// The value of the 3-byte length field: IV + ciphertext + tag.
        public var length: Int { iv.count + ciphertext.count + tag.count }

        func write(to writer: inout ByteWriter) {
            writer.writeUInt24(length)
            writer.write(bytes: iv)
            writer.write(bytes: ciphertext)
            writer.write(bytes: tag)
        }

        static func read(from cursor: inout NanoTDFCursor, cipher: Cipher) throws(NanoTDFError) -> Payload {
            let length = try cursor.readUInt24("payload length")
            let minimum = NanoTDFLimits.ivSize + cipher.tagSize
            guard length >= minimum else { throw .payloadLengthTooSmall(length: length, minimum: minimum) }
            guard length <= cursor.remaining else {
                throw .truncated(field: "payload", needed: length, available: cursor.remaining, offset: cursor.offset)
            }
            let iv = try cursor.read(NanoTDFLimits.ivSize, "payload IV")
            let ciphertext = try cursor.read(length - minimum, "payload ciphertext")
            let tag = try cursor.read(cipher.tagSize, "payload tag")
            return Payload(iv: iv, ciphertext: ciphertext, tag: tag)
        }

        func validate(cipher: Cipher) throws(NanoTDFError) {
            guard iv.count == NanoTDFLimits.ivSize else {
                throw .truncated(field: "payload IV", needed: NanoTDFLimits.ivSize, available: iv.count, offset: 0)
            }
            guard tag.count == cipher.tagSize else {
                throw .truncated(field: "payload tag", needed: cipher.tagSize, available: tag.count, offset: 0)
            }
            guard length <= NanoTDFLimits.maximumPayloadLength else {
                throw .plaintextTooLarge(
                    length: ciphertext.count, maximum: NanoTDFLimits.maximumPlaintextLength(tagSize: cipher.tagSize))
            }
        }
    }
}
