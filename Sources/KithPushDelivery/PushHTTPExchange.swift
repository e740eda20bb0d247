import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// What one HTTP attempt produced: a response (status, headers, a bounded body) or a transport failure.
enum PushHTTPResult: Sendable {
    /// The server answered.
    case response(status: Int, headers: HTTPHeaders, body: [UInt8])
    /// No answer: connection refused, TLS failure, timeout, reset. The reason names the error type only.
    case transportFailure(String)
}

/// Sends one request through the shared client with the provider's deadline and body cap.
struct PushHTTPExchange: Sendable {
    let client: HTTPClient
    let settings: PushHTTPSettings

    /// Sends `request` once; never throws.
    func send(_ request: HTTPClientRequest) async -> PushHTTPResult {
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: settings.requestTimeout)
        } catch {
            return .transportFailure(Self.describe(error))
        }
        var body: [UInt8] = []
        do {
            let buffer = try await response.body.collect(upTo: settings.maxResponseBodyBytes)
            body = Array(buffer.readableBytesView)
        } catch {
            // An oversized or broken body: judge the response by its status and headers alone.
            body = []
        }
        return .response(status: Int(response.status.code), headers: response.headers, body: body)
    }

    /// A short description of a transport error that carries no request data (URLs with capabilities, headers).
    static func describe(_ error: any Error) -> String {
        if let clientError = error as? HTTPClientError {
            let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout]
            if timeouts.contains(clientError) { return "timed out" }
            if clientError == .remoteConnectionClosed { return "connection closed by the server" }
            return "HTTP client error \(String(describing: clientError).prefix(80))"
        }
        return "transport error \(String(describing: type(of: error)))"
    }
}
