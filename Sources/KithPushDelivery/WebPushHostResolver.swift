#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix

/// Resolves an endpoint's DNS name before a Web Push request, so that names pointing at private
/// addresses are refused like private IP literals (see ``WebPushEndpointPolicy``).
public protocol WebPushHostResolver: Sendable {
    /// The addresses of `host`: 4-byte IPv4 or 16-byte IPv6 values.
    func addresses(of host: String) async throws -> [[UInt8]]
}

/// Why the system resolver found no address.
public struct WebPushHostResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `getaddrinfo` result code.
    public let code: Int32

    /// A short message.
    public var description: String { "host name did not resolve (getaddrinfo \(code))" }
}

/// The system resolver (`getaddrinfo`), run on NIO's blocking thread pool.
public struct SystemWebPushHostResolver: WebPushHostResolver {
    /// Creates the resolver.
    public init() {}

    /// Resolves `host` with `getaddrinfo` (TCP, any family).
    public func addresses(of host: String) async throws -> [[UInt8]] {
        try await NIOThreadPool.singleton.runIfActive {
            try Self.resolve(host)
        }
    }

    static func resolve(_ host: String) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0, let first = list else { throw WebPushHostResolutionError(code: code) }
        defer { freeaddrinfo(first) }
        var result: [[UInt8]] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor, result.count < 64 {
            if let address = entry.pointee.ai_addr {
                switch Int32(entry.pointee.ai_family) {
                case AF_INET:
                    var value = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    result.append(withUnsafeBytes(of: &value) { Array($0) })
                case AF_INET6:
                    var value = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    result.append(withUnsafeBytes(of: &value) { Array($0) })
                default:
                    break
                }
            }
            cursor = entry.pointee.ai_next
        }
        return result
    }
}
