import KithCanonical

extension NanoTDF {
    /// How an ECDSA policy binding's `r` and `s` are laid out on the wire.
    public enum ECDSABindingEncoding: Sendable, Equatable {
        /// `[len r][r][len s][s]` with minimal big-endian integers: the Go/Java/JS SDKs and Kith's dialect.
        case lengthPrefixed
        /// Fixed-size `r ‖ s` (64, 96 or 132 bytes): the spec text and its examples.
        case fixed
    }

    /// The policy binding that follows the policy body.
    public enum PolicyBinding: Sendable, Equatable {
        /// "GMAC" mode: 8 bytes, in Kith's dialect the last 8 bytes of SHA-256 of the binding message.
        case gmac([UInt8])
        /// ECDSA mode: a signature by the header's ephemeral key over SHA-256 of the binding message.
        case ecdsa(r: [UInt8], s: [UInt8], encoding: ECDSABindingEncoding)

        func write(to writer: inout ByteWriter) {
            switch self {
            case .gmac(let tag):
                writer.write(bytes: tag)
            case .ecdsa(let r, let s, .lengthPrefixed):
                writer.write(UInt8(truncatingIfNeeded: r.count))
                writer.write(bytes: r)
                writer.write(UInt8(truncatingIfNeeded: s.count))
                writer.write(bytes: s)
            case .ecdsa(let r, let s, .fixed):
                writer.write(bytes: r)
                writer.write(bytes: s)
            }
        }

        static func read(
            from cursor: inout NanoTDFCursor, ecdsa: Bool, curve: Curve, encoding: ECDSABindingEncoding
        ) throws(NanoTDFError) -> PolicyBinding {
            guard ecdsa else { return .gmac(try cursor.read(NanoTDFLimits.gmacBindingSize, "GMAC policy binding")) }
            let size = curve.coordinateSize
            switch encoding {
            case .fixed:
                let r = try cursor.read(size, "ECDSA binding r")
                let s = try cursor.read(size, "ECDSA binding s")
                return .ecdsa(r: r, s: s, encoding: .fixed)
            case .lengthPrefixed:
                let r = try readComponent(from: &cursor, name: "r", maximum: size)
                let s = try readComponent(from: &cursor, name: "s", maximum: size)
                return .ecdsa(r: r, s: s, encoding: .lengthPrefixed)
            }
        }

        private static func readComponent(
            from cursor: inout NanoTDFCursor, name: String, maximum: Int
        ) throws(NanoTDFError) -> [UInt8] {
            let length = Int(try cursor.readByte("ECDSA binding \(name) length"))
            guard (1...maximum).contains(length) else {
                throw .malformedPolicyBinding(reason: "\(name) length \(length) outside 1...\(maximum)")
            }
            return try cursor.read(length, "ECDSA binding \(name)")
        }

        func validate(ecdsaMode: Bool, curve: Curve) throws(NanoTDFError) {
            switch self {
            case .gmac(let tag):
                guard !ecdsaMode else { throw .malformedPolicyBinding(reason: "GMAC binding in an ECDSA-mode header") }
                guard tag.count == NanoTDFLimits.gmacBindingSize else {
                    throw .malformedPolicyBinding(reason: "GMAC binding must be 8 bytes, got \(tag.count)")
                }
            case .ecdsa(let r, let s, let encoding):
                guard ecdsaMode else { throw .malformedPolicyBinding(reason: "ECDSA binding in a GMAC-mode header") }
                let size = curve.coordinateSize
                switch encoding {
                case .fixed:
                    guard r.count == size, s.count == size else {
                        throw .malformedPolicyBinding(reason: "fixed r and s must be \(size) bytes each")
                    }
                case .lengthPrefixed:
                    guard (1...size).contains(r.count), (1...size).contains(s.count) else {
                        throw .malformedPolicyBinding(reason: "r and s must be 1...\(size) bytes each")
                    }
                }
            }
        }
    }
}
