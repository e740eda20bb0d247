/// Every constant and bound of Kith's device-to-device sync, in one place.
///
/// Sizes are in bytes, durations in seconds. The wire sizes come from spec section 8.3; the
/// bounds are Kith's own and are documented in `docs/sync.md`.
public enum SyncLimits {
    // MARK: Spec 8.3 structure sizes

    /// Length of a feed id or message id on the wire (raw SHA-256).
    public static let idLength = 32
    /// Encoded size of a ``SyncRequest``.
    public static let requestLength = 36
    /// Encoded size of a ``SyncOffer``.
    public static let offerLength = 40
    /// Size of the fixed part of a ``SyncChunk`` (message id, index, total).
    public static let chunkHeaderLength = 36
    /// Encoded size of a ``SyncAck``.
    public static let ackLength = 33
    /// Bytes of a held-ranges record before its ranges: feed id (32) and range count (1).
    public static let heldRangesHeaderLength = 33
    /// Bytes of one held range: first and last sequence (u32 each).
    public static let heldRangeLength = 8
    /// Most ranges in one held-ranges record (the count is a u8).
    public static let maximumHeldRangesPerRecord = 255
    /// Encoded size of a blob want: blob hash (32) and maximum size (u32).
    public static let blobWantLength = 36
    /// `have_seq` value meaning "I have nothing of this feed".
    public static let haveNothing: UInt32 = 0xFFFF_FFFF

    // MARK: Link frames (ATT payloads)

    /// Smallest link frame a transport may negotiate (ATT MTU 23 minus 3).
    public static let minimumMTU = 20
    /// Largest link frame a transport may negotiate (ATT MTU 512 minus 3).
    public static let maximumMTU = 509
    /// Link frame size assumed by benchmarks and defaults (one LE Data Length Extension PDU).
    public static let defaultMTU = 244

    // MARK: TCP

    /// Bytes of big-endian length in front of every link frame on TCP.
    public static let tcpLengthPrefixLength = 2
    /// Frames a TCP connection queues before it stops reading from the socket.
    public static let tcpInboxHighWatermark = 1024
    /// Accepted TCP connections waiting to be taken from a listener (a ``TCPSyncServer`` takes
    /// them at once, so this only absorbs bursts).
    public static let tcpPendingConnections = 64
    /// Seconds an accepted connection has to complete the Noise handshake (a slow or silent
    /// client is closed then, however it trickles bytes).
    public static let tcpHandshakeTimeoutSeconds: Double = 5
    /// Connections a ``TCPSyncServer`` handshakes at the same time (unauthenticated); one more
    /// evicts the oldest.
    public static let tcpMaximumPendingHandshakes = 64
    /// Unauthenticated connections from one source address at the same time; one more evicts the
    /// oldest of that source (so one address cannot take the global quota).
    public static let tcpMaximumPendingHandshakesPerSource = 8
    /// Authenticated sessions a ``TCPSyncServer`` runs at the same time; further links are closed.
    public static let tcpMaximumConcurrentSessions = 16
    /// Seconds a TCP connection may go without receiving a byte before it is closed and a
    /// pending ``TCPTransport/receive()`` fails with ``SyncTransportError/idleTimeout`` (a peer
    /// that went silent, or a connection nobody answers, never holds a task forever).
    public static let tcpIdleTimeoutSeconds: Double = 30

    // MARK: Segmentation and sealing

    /// Bytes of segment header in every link frame.
    public static let segmentHeaderLength = 1
    /// Largest link message (handshake message or sealed frame) a receiver reassembles from segments.
    public static let maximumLinkMessageLength = 4096
    /// Most link frames one sealed frame spans (bounds what one lost link frame costs).
    public static let maximumSegmentsPerSealedFrame = 16
    /// Bytes of explicit nonce (low 16 bits of the Noise counter) in front of every sealed frame.
    public static let sealedNonceLength = 2
    /// Bytes of ChaCha20-Poly1305 tag at the end of every sealed frame.
    public static let tagLength = 16
    /// Largest number of frames a ``SecureLink`` seals in one direction before it must be re-established.
    public static let maximumFramesPerLink: UInt64 = 1 << 48

    // MARK: Records inside sealed frames

    /// Bytes in front of a chunk record: kind (1) and chunk length (2).
    public static let chunkRecordPrefixLength = 3

    // MARK: Reassembly

    /// Largest envelope (and largest reassembled message body) accepted.
    public static let maximumMessageLength = 64 * 1024
    /// Largest message body (envelope plus the optional 5-byte compression prefix).
    public static let maximumBodyLength = maximumMessageLength + compressedBodyPrefixLength
    /// Largest `total_chunks` accepted for one message.
    public static let maximumChunksPerMessage = 4096
    /// Messages reassembled at the same time per link.
    public static let maximumConcurrentReassemblies = 8
    /// Bytes buffered across all unfinished reassemblies of a link.
    public static let maximumBufferedBytes = 256 * 1024
    /// Seconds an unfinished reassembly may wait for its next chunk before it is dropped
    /// (an inactivity timeout: every accepted chunk restarts it).
    public static let reassemblyTimeout: Double = 30

    // MARK: Sessions

    /// Most received messages ingested in one batch (one store transaction).
    public static let maximumIngestBatch = 64
    /// Requests a peer may send in one session (bounds the work a peer can queue).
    public static let maximumRequestsPerSession = 4096
    /// Held ranges a peer may declare per feed in one session (more are a violation; a receiver
    /// sends its highest ranges when it holds more).
    public static let maximumHeldRangesPerFeed = 4096

    // MARK: Blobs

    /// Default largest blob a session asks for or serves: 16 MiB of attachment plus the 17 bytes of
    /// blob encryption overhead (``KithFeed`` `ContactsLimits.maxBlobPlaintextBytes` + 17).
    public static let defaultMaximumBlobLength = 16 * 1024 * 1024 + 17
    /// Most blob wants a side sends, or accepts from the peer, in one session.
    public static let maximumBlobWantsPerSession = 1024
    /// Largest `total_chunks` of one blob (the u16 maximum).
    public static let maximumChunksPerBlob = Int(UInt16.max)

    // MARK: Compression

    /// zstd compression level for envelopes (spec 8.4: level 1 for speed).
    public static let compressionLevel: Int32 = 1
    /// Bytes in front of a compressed body: encoding flag (1) and decompressed size (4).
    public static let compressedBodyPrefixLength = 5

    // MARK: Protocol

    /// The sync protocol version carried in ``SyncHello``.
    public static let protocolVersion: UInt8 = 1
    /// Noise prologue binding both sides to this protocol.
    public static let noisePrologue: [UInt8] = Array("kith-sync/1".utf8)
    /// HKDF info deriving a link's feed-blinding key from its Noise handshake hash
    /// (``SyncFeedBlinding``, docs/sync.md section 9b).
    public static let feedBlindingLabel: [UInt8] = Array("kith-sync/1 feed blinding".utf8)
}
