/// Every constant and bound of the rendezvous protocol (Inviso-compatible REST and WebSocket
/// signaling), in one place; `docs/SERVER.md` quotes them.
///
/// Sizes are in bytes, durations in seconds unless the name says otherwise.
public enum RendezvousLimits {
    // MARK: Network

    /// The TCP port `kith serve` listens on by default.
    public static let defaultPort = 7460
    /// The address `kith serve` binds by default: loopback only.
    public static let defaultHost = "127.0.0.1"

    // MARK: Identifiers

    /// Shortest join code accepted (Inviso's clients generate 6 decimal digits).
    public static let minimumJoinCodeLength = 6
    /// Longest join code accepted: longer codes (letters, digits, `-`, `_`) resist guessing better.
    public static let maximumJoinCodeLength = 64
    /// Longest ephemeral device id accepted (Inviso's are UUID strings, 36 characters).
    public static let maximumDeviceIDLength = 128
    /// Longest room id accepted in a request (rooms this server creates have 48 hex digits).
    public static let maximumRoomIDLength = 128
    /// Random bytes in a room id this server creates (printed as 48 lowercase hex digits).
    public static let roomIDRandomBytes = 24

    // MARK: Pairing expiry

    /// Shortest lifetime of a pending pairing, in seconds.
    public static let minimumExpirySeconds = 1
    /// Longest lifetime of a pending pairing, in seconds (24 hours).
    public static let maximumExpirySeconds = 86_400

    // MARK: REST bodies

    /// Largest REST request body accepted.
    public static let maximumRequestBodyBytes = 65_536
    /// Most device ids one purge request may name.
    public static let maximumPurgeDeviceIDs = 256

    // MARK: Signaling messages

    /// Largest WebSocket message (one frame or a fragmented message) accepted; a larger one
    /// closes the connection with status 1009.
    public static let maximumSignalingMessageBytes = 65_536
    /// Longest SDP accepted in an offer or answer.
    public static let maximumSDPBytes = 60_000
    /// Longest ICE candidate line accepted.
    public static let maximumCandidateBytes = 2_048
    /// Longest `sdpMid` or `usernameFragment` accepted.
    public static let maximumCandidateFieldBytes = 256
    /// Longest `publicKey` or `sessionId` accepted in a key exchange message.
    public static let maximumKeyExchangeFieldBytes = 512
    /// Largest `sdpMLineIndex` accepted.
    public static let maximumSDPMLineIndex = 65_535
    /// Longest `type` accepted (longer types are reported truncated in the error).
    public static let maximumMessageTypeBytes = 64
    /// Members a room holds (Inviso's rooms are for two).
    public static let roomCapacity = 2

    // MARK: Presence tokens (Inviso's `client1_token` / `client2_token`)

    /// Longest push token accepted with a room (an APNs token is 64 hex digits, an FCM registration token about
    /// 160 characters; FCM documents no maximum, so 512 leaves room without storing unbounded text).
    public static let maximumPresenceTokenLength = 512
    /// Longest `platform` accepted; a longer one is refused, a shorter unknown one ignored.
    public static let maximumPlatformLength = 32
}
