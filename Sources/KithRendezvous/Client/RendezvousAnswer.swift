import KithCanonical

/// One HTTP answer of the rendezvous server, before interpretation.
struct RendezvousAnswer: Sendable {
    let status: Int
    let body: [UInt8]
    let retryAfter: Int?

    /// Decodes the body with `decoder` (one of the protocol types' `init(json:)`).
    func decode<Value>(_ decoder: (JSONObject) throws(RendezvousCodecError) -> Value) throws(RendezvousClientError) -> Value {
        do throws(RendezvousCodecError) {
            return try decoder(try RendezvousJSON.parseObject(body, limits: RendezvousJSON.restLimits))
        } catch {
            throw .invalidResponse(status: status, reason: error.description)
        }
    }

    /// The error this (non-success) answer stands for.
    func failure() -> RendezvousClientError {
        let errorBody = (try? RendezvousJSON.parseObject(body, limits: RendezvousJSON.restLimits)).flatMap(RendezvousErrorBody.init(json:))
        switch status {
        case 404: return .notFoundOrExpired
        case 409: return .conflict(errorBody?.error ?? RendezvousErrorCode.conflict)
        case 429: return .rateLimited(retryAfterSeconds: retryAfter)
        default: return .rejected(status: status, error: errorBody)
        }
    }
}
