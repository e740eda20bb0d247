import AsyncHTTPClient
import NIOCore
import NIOSSL

/// The HTTP behaviour shared by every provider: one attempt, a deadline, a bounded response body.
public struct PushHTTPSettings: Sendable {
    /// The deadline for one request, from sending to the last byte of the response body (default 10 s).
    public var requestTimeout: TimeAmount
    /// The largest response body read; longer bodies are cut off and the response is judged on its status (default 16 KiB).
    public var maxResponseBodyBytes: Int

    /// Creates settings.
    public init(requestTimeout: TimeAmount = .seconds(10), maxResponseBodyBytes: Int = 16 * 1024) {
        self.requestTimeout = requestTimeout
        self.maxResponseBodyBytes = max(0, maxResponseBodyBytes)
    }

    /// Creates the `HTTPClient` the providers should share: redirects are never followed (a push
    /// service that redirects is refused, RFC 8030 / UnifiedPush), connections time out after
    /// `connectTimeout`, responses are not decompressed.
    ///
    /// The caller owns the client and shuts it down (`try await client.shutdown()`).
    ///
    /// - Parameters:
    ///   - tlsConfiguration: trust settings, for example a test mock's own certificate; `nil` uses the system roots.
    ///   - connectTimeout: the TCP/TLS connect timeout.
    public static func makeHTTPClient(
        tlsConfiguration: TLSConfiguration? = nil,
        connectTimeout: TimeAmount = .seconds(5)
    ) -> HTTPClient {
        HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: makeConfiguration(tlsConfiguration: tlsConfiguration, connectTimeout: connectTimeout))
    }

    /// The configuration of ``makeHTTPClient(tlsConfiguration:connectTimeout:)``, for clients made elsewhere with
    /// the same behaviour (``PinnedHTTPClients``).
    public static func makeConfiguration(
        tlsConfiguration: TLSConfiguration? = nil,
        connectTimeout: TimeAmount = .seconds(5)
    ) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tlsConfiguration,
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout, read: .seconds(30)),
            decompression: .disabled
        )
        configuration.httpVersion = .automatic
        return configuration
    }
}
