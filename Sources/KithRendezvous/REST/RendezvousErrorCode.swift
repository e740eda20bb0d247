/// The `error` strings of the REST API: Inviso's where Inviso has one, Kith's own for the
/// defects it fixes (`docs/SERVER.md` lists which answer goes with which status).
public enum RendezvousErrorCode {
    /// 404: no pending pairing or room of that id, or it expired (Inviso).
    public static let notFoundOrExpired = "not_found_or_expired"
    /// 409: another device already accepted this join code (Inviso documents it; Kith sends it).
    public static let conflict = "conflict"
    /// 409: a live pending pairing already uses this join code (Inviso answered 500 `create_failed`).
    public static let joinCodeInUse = "joinid_in_use"
    /// 403 on create: a claimed join code (``JoinCodeClaim``) without the secret it commits to.
    public static let claimRequired = "claim_required"
    /// 404 on `GET /api/rooms`: no live room of that id.
    public static let notFound = "not_found"
    /// 429: too many requests from this source or for this join code; retry after `Retry-After` seconds.
    public static let rateLimited = "rate_limited"
    /// 400: the body is not a JSON object within the limits.
    public static let invalidJSON = "invalid_json"
    /// 413: the body is larger than ``RendezvousLimits/maximumRequestBodyBytes``.
    public static let bodyTooLarge = "body_too_large"
    /// 415: a body not declared `Content-Type: application/json` (or a body without a `Content-Type`).
    public static let unsupportedMediaType = "unsupported_media_type"
    /// 400 on purge: neither `deviceIds` nor `deviceId` given (Inviso).
    public static let missingDeviceIDs = "missing_deviceIds_or_deviceId"
    /// 400 on purge: `deviceIds` is an empty array (Inviso).
    public static let emptyDeviceIDs = "empty_deviceIds_array"
    /// 400 on purge: some ids are not valid device ids; `count` says how many (Inviso).
    public static let invalidDeviceIDs = "invalid_device_ids"
    /// 400 on purge: more than ``RendezvousLimits/maximumPurgeDeviceIDs`` ids.
    public static let tooManyDeviceIDs = "too_many_deviceIds"
    /// 410: Inviso's retired `/api/rooms/:roomid` endpoints.
    public static let useNewEndpoints = "use_new_endpoints"
    /// 500: the store failed; nothing about the request is revealed.
    public static let internalError = "internal_error"
    /// The `details` Inviso sends with `invalid_expiresInSeconds`.
    public static let expiryDetails = "must be 1-86400 seconds (1 sec to 24 hours)"
}
