#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Classifies endpoint hosts as public or not, for ``WebPushEndpointPolicy``.
enum IPAddressClassifier {
    /// Internal DNS suffixes that never name a public push service.
    static let internalSuffixes = [".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet"]

    /// Whether `host` (lowercased, no brackets) must not be reached from a server by default.
    static func isNonPublicHost(_ host: String) -> Bool {
        if let v4 = parseIPv4(host) { return isNonPublicIPv4(v4) }
        if host.contains(":") {
            guard let v6 = parseIPv6(host) else { return true }
            return isNonPublicIPv6(v6)
        }
        if host == "localhost" || internalSuffixes.contains(where: { host.hasSuffix($0) }) { return true }
        // Single-label names resolve through search domains, usually to internal hosts.
        guard host.contains(".") else { return true }
        // A numeric last label is an IPv4 spelling resolvers accept (`2130706433`, `0x7f.1`, `127.1`):
        // only the plain dotted quad above is classified, every other numeric form is refused.
        let lastLabel = host.split(separator: ".").last.map(String.init) ?? host
        if lastLabel.allSatisfy({ $0.isASCII && $0.isNumber }) || lastLabel.hasPrefix("0x") { return true }
        return false
    }

    /// A plain dotted quad (`a.b.c.d`, each 0…255 in decimal without leading zeros).
    static func parseIPv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  !(part.count > 1 && part.hasPrefix("0")), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// An IPv6 literal (without brackets or zone) as 16 bytes, through `inet_pton`.
    static func parseIPv6(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 45, !text.contains("%") else { return nil }
        var address = in6_addr()
        let result = text.withCString { inet_pton(AF_INET6, $0, &address) }
        guard result == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.168/16,
    /// 198.18/15, 198.51.100/24, 203.0.113/24, 224/4 and 240/4 (multicast, reserved, broadcast).
    static func isNonPublicIPv4(_ a: [UInt8]) -> Bool {
        guard a.count == 4 else { return true }
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return true
        case (100, 64...127, _): return true
        case (169, 254, _): return true
        case (172, 16...31, _): return true
        case (192, 0, 0), (192, 0, 2), (192, 168, _): return true
        case (198, 18...19, _), (198, 51, 100), (203, 0, 113): return true
        case (224...255, _, _): return true
        default: return false
        }
    }

    /// ::, ::1, IPv4-mapped/compatible and NAT64 forms of non-public IPv4, fc00::/7, fe80::/10,
    /// fec0::/10, ff00::/8 and 2001:db8::/32.
    static func isNonPublicIPv6(_ a: [UInt8]) -> Bool {
        guard a.count == 16 else { return true }
        let firstTen = a[0..<10].allSatisfy { $0 == 0 }
        if firstTen && a[10] == 0 && a[11] == 0 {
            // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d.
            return a[12] == 0 || isNonPublicIPv4(Array(a[12..<16]))
        }
        if firstTen && a[10] == 0xFF && a[11] == 0xFF { return isNonPublicIPv4(Array(a[12..<16])) }
        if a[0] == 0x00, a[1] == 0x64, a[2] == 0xFF, a[3] == 0x9B, a[4..<12].allSatisfy({ $0 == 0 }) {
            return isNonPublicIPv4(Array(a[12..<16]))
        }
        if a[0] & 0xFE == 0xFC { return true }
        if a[0] == 0xFE && (a[1] & 0xC0 == 0x80 || a[1] & 0xC0 == 0xC0) { return true }
        if a[0] == 0xFF { return true }
        if a[0] == 0x20, a[1] == 0x01, a[2] == 0x0D, a[3] == 0xB8 { return true }
        return false
    }
}
