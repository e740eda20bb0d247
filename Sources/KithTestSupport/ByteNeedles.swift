import Foundation
import KithCanonical

/// Byte strings a test looks for where they must not appear (an identity's keys and feed id in what another identity
/// emits), in every encoding they could travel in.
public enum ByteNeedles {
    /// `bytes` raw, hex, standard base64, base64url and base32 (upper and lower case), each named `name` plus its
    /// encoding; the text encodings are cut to their first 40 characters, a prefix that does not depend on padding.
    public static func encodings(_ name: String, _ bytes: [UInt8]) -> [(String, [UInt8])] {
        let base32 = String(Base32.encode(bytes).prefix(40))
        return [
            (name, bytes),
            (name + " hex", Array(Hex.encode(bytes).utf8)),
            (name + " base64", Array(Data(bytes).base64EncodedString().prefix(40).utf8)),
            (name + " base64url", Array(Base64URL.encode(bytes).prefix(40).utf8)),
            (name + " base32", Array(base32.utf8)),
            (name + " base32 lowercase", Array(base32.lowercased().utf8)),
        ]
    }

    /// The names of the needles found in `haystack`.
    public static func found(_ needles: [(String, [UInt8])], in haystack: [UInt8]) -> [String] {
        needles.filter { contains(haystack, $0.1) }.map(\.0)
    }

    /// Whether `needle` (not empty) occurs in `haystack`.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
