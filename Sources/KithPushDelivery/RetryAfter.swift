import Foundation
import NIOHTTP1

/// Reads an HTTP `Retry-After` header (RFC 9110 §10.2.3): delay seconds or an HTTP date.
enum RetryAfter {
    /// The longest wait reported to the gateway: a provider cannot park a device for more than a day.
    static let maxSeconds = 86_400

    /// The delay in seconds from `headers`, clamped to 0…``maxSeconds``; nil when absent or unreadable.
    static func seconds(in headers: HTTPHeaders, now: Int64) -> Int? {
        guard let value = headers.first(name: "retry-after")?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
              value.utf8.count <= 64 else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard let seconds = Int(value.prefix(9)), value.utf8.count <= 9 else { return maxSeconds }
            return min(seconds, maxSeconds)
        }
        guard let date = httpDate(value) else { return nil }
        let delta = Int64(date.timeIntervalSince1970) - now
        return Int(min(max(delta, 0), Int64(maxSeconds)))
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only form senders must use.
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
