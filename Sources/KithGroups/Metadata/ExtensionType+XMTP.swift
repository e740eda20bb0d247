import KithMLS

extension ExtensionType {
    /// XMTP's `GroupMutableMetadata` GroupContext extension (`0xff00`, private use per RFC 9420 §17.3): a
    /// `GroupMutableMetadataV1` protobuf whose `app_data` attribute carries the Convos conversation metadata.
    public static let xmtpGroupMutableMetadata = ExtensionType(rawValue: 0xFF00)
}
