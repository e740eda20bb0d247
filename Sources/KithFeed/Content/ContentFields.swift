import KithCanonical
import KithIdentity

/// Field readers shared by the content types; each enforces one rule of spec 5 and reports it
/// as ``FeedError/invalidContent(type:reason:)``.
struct ContentFields {
    let object: JSONObject
    let type: String

    func fail(_ reason: String) -> FeedError { .invalidContent(type: type, reason: reason) }

    func requiredString(_ name: String) throws(FeedError) -> String {
        guard let value = object[name] else { throw fail("'\(name)' is required") }
        guard let text = value.stringValue else { throw fail("'\(name)' must be a string") }
        return text
    }

    /// A string or null or absent (absent and null both mean nil: spec 10.3).
    func optionalString(_ name: String) throws(FeedError) -> String? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw fail("'\(name)' must be a string or null") }
        return text
    }

    func stringArray(_ name: String, max: Int) throws(FeedError) -> [String] {
        guard let value = object[name], !value.isNull else { return [] }
        guard let array = value.arrayValue else { throw fail("'\(name)' must be an array") }
        guard array.count <= max else { throw fail("'\(name)' has \(array.count) entries; at most \(max) are allowed") }
        var out: [String] = []
        for element in array {
            guard let text = element.stringValue else { throw fail("'\(name)' entries must be strings") }
            out.append(text)
        }
        return out
    }

    func text(_ value: String, _ name: String, maxScalars: Int) throws(FeedError) -> String {
        let count = TextLength.scalars(value)
        guard count <= maxScalars else { throw fail("'\(name)' is \(count) characters; at most \(maxScalars) are allowed") }
        return value
    }

    func bytes(_ value: String, _ name: String, length: Int) throws(FeedError) -> [UInt8] {
        do {
            return try Base64URL.decode(value, expectedLength: length)
        } catch {
            throw fail("'\(name)': \(error.description)")
        }
    }

    func hash(_ value: String, _ name: String) throws(FeedError) -> String {
        _ = try bytes(value, name, length: 32)
        return value
    }

    func messageID(_ value: String, _ name: String) throws(FeedError) -> MessageID {
        do { return try MessageID(value) } catch { throw fail("'\(name)' is not a message id") }
    }

    func feedID(_ value: String, _ name: String) throws(FeedError) -> FeedID {
        do { return try FeedID(value) } catch { throw fail("'\(name)' is not a feed id") }
    }

    func oneOf(_ value: String?, _ name: String, _ allowed: [String]) throws(FeedError) -> String? {
        guard let value else { return nil }
        guard allowed.contains(value) else { throw fail("'\(name)' must be one of \(allowed.joined(separator: ", "))") }
        return value
    }
}

/// How Kith counts "characters" in content limits: Unicode scalar values (code points).
///
/// Not bytes (which would penalize non-Latin scripts 2-4x) and not grapheme clusters (whose
/// boundaries change between Unicode versions, so two implementations could disagree).
public enum TextLength {
    /// The number of Unicode scalars in `text`.
    public static func scalars(_ text: String) -> Int { text.unicodeScalars.count }
}
