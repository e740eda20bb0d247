import CQREncode

/// QR codes for contact cards, drawn with libqrencode for a terminal (a terminal concern: the
/// `Kith` library an app links does not carry it).
public enum QRCode {
    /// Why a text cannot be drawn as a QR code.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text does not fit in one QR code.
        case tooLong(bytes: Int)
        /// libqrencode returned no modules.
        case empty

        public var description: String {
            switch self {
            case .tooLong(let bytes): "the text (\(bytes) bytes) does not fit in a QR code"
            case .empty: "libqrencode returned an empty code"
            }
        }
    }

    /// The module matrix of `text` (true = dark), byte mode, error correction level L, with no
    /// quiet zone. Throws when the text does not fit one QR code.
    public static func matrix(_ text: String) throws(Failure) -> [[Bool]] {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L) else {
            throw .tooLong(bytes: text.utf8.count)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { throw .empty }
        var rows: [[Bool]] = []
        rows.reserveCapacity(width)
        for y in 0..<width {
            rows.append((0..<width).map { x in (data[y * width + x] & 0x01) != 0 })
        }
        return rows
    }

    /// The code as terminal text: two modules per character row using half blocks, light modules
    /// drawn (so it scans on a dark terminal background), with a 2-module quiet zone.
    public static func render(_ text: String) throws(Failure) -> String {
        let modules = try matrix(text)
        let quiet = 2
        let size = modules.count + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let mx = x - quiet, my = y - quiet
            guard mx >= 0, my >= 0, mx < modules.count, my < modules.count else { return false }
            return modules[my][mx]
        }
        var lines: [String] = []
        for y in stride(from: 0, to: size, by: 2) {
            var line = ""
            for x in 0..<size {
                let top = !dark(x, y)
                let bottom = y + 1 < size ? !dark(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): line += "\u{2588}"
                case (true, false): line += "\u{2580}"
                case (false, true): line += "\u{2584}"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
