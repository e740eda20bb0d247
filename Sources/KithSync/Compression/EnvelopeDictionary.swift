/// The zstd raw-content dictionary of Kith envelopes, version 1 (capability
/// ``SyncCapabilities/zstdEnvelopeDictionary``, body flag 0x02).
///
/// It is the canonical JSON skeleton of spec 3.1 envelopes (keys in canonical order, every
/// content type and audience kind) and of self stubs, most common last (zstd reaches recent
/// dictionary bytes with the cheapest offsets). Field names and punctuation of a ~600-byte
/// envelope then cost a few bytes of matches instead of ~130 bytes of literals. The bytes are part
/// of the wire format: changing them needs a new flag and capability bit.
public enum EnvelopeDictionary {
    /// The dictionary bytes (ASCII). Never starts with the zstd dictionary magic, so zstd treats it
    /// as raw content.
    public static let version1: [UInt8] = Array((
        #"{"feed_id":"","message_id":"","sequence":0,"stub":"self"}"#
        + #"{"audience":"self","content_enc":"","feed_id":"","previous":null,"sequence":0,"signature":"","timestamp":1,"type":"profile_update","version":1}"#
        + #"{"audience":"group:","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"group_event","version":1}"#
        + #"{"audience":"contacts","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"key_rotation","version":1}"#
        + #"{"audience":"direct:","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"contact_introduction","version":1}"#
        + #"{"audience":"contacts","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"tombstone","version":1}"#
        + #"{"audience":"contacts","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"reaction","version":1}"#
        + #"{"audience":"self","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":1,"type":"post","version":1}"#
        + #"{"audience":"contacts","content_enc":"","feed_id":"","previous":"","sequence":1,"signature":"","timestamp":17,"type":"post","version":1}"#
    ).utf8)
}
