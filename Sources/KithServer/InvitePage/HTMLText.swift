/// Text made safe for HTML element content and double- or single-quoted attribute values.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, and every C0 control but tab and
    /// newline (and DEL) replaced by U+FFFD. Other characters, non-ASCII included, pass through unchanged: the
    /// page is served as UTF-8.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
