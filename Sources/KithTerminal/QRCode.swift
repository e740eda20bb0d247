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

    /// QR error-correction level: the share of the symbol that may be damaged and still read.
    public enum Level: Sendable, Hashable, CustomStringConvertible {
        /// About 7 % recoverable.
        case low
        /// About 15 % recoverable: the level Kith draws contact cards and invites at.
        case medium
        /// About 25 % recoverable.
        case quartile
        /// About 30 % recoverable.
        case high

        var native: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }

        /// The level's letter (L, M, Q, H).
        public var description: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }
    }

    /// The smallest symbol that holds a text: its QR version (1...40) and width in modules (17 + 4 × version, no
    /// quiet zone).
    public struct Symbol: Sendable, Hashable {
        /// The QR version.
        public let version: Int
        /// Modules per side.
        public let width: Int
    }

    /// The module matrix of `text` (true = dark) at `level`, with no quiet zone. libqrencode splits the text into
    /// numeric, alphanumeric and byte segments (case-sensitive), whichever makes the smallest symbol, so an
    /// uppercase base32 text uses alphanumeric mode. Throws when the text does not fit one QR code.
    public static func matrix(_ text: String, level: Level = .low) throws(Failure) -> [[Bool]] {
        try withCode(text, level: level) { code, width in
            var rows: [[Bool]] = []
            rows.reserveCapacity(width)
            for y in 0..<width {
                rows.append((0..<width).map { x in (code.data[y * width + x] & 0x01) != 0 })
            }
            return rows
        }
    }

    /// The version and width of the smallest symbol holding `text` at `level` (a deterministic property of the text).
    public static func symbol(_ text: String, level: Level) throws(Failure) -> Symbol {
        try withCode(text, level: level) { code, width in Symbol(version: Int(code.version), width: width) }
    }

    private static func withCode<Result>(
        _ text: String, level: Level, _ body: (QRcode, Int) -> Result
    ) throws(Failure) -> Result {
        guard let code = QRcode_encodeString(text, 0, level.native, QR_MODE_8, 1) else {
            throw .tooLong(bytes: text.utf8.count)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, code.pointee.data != nil else { throw .empty }
        return body(code.pointee, width)
    }

    /// The code as terminal text: two modules per character row using half blocks, light modules
    /// drawn (so it scans on a dark terminal background), with a 2-module quiet zone.
    public static func render(_ text: String, level: Level = .low) throws(Failure) -> String {
        let modules = try matrix(text, level: level)
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
