import KithCanonical

/// Hands a contact one MLS KeyPackage over the direct session, so the contact can add this identity to groups
/// (Kith extension type `mls_key_package`, additive per spec 10.1; docs/GROUPS.md, "KeyPackages").
///
/// ```json
/// {"key_package":"<base64url of the TLS-encoded KeyPackage>","type":"mls_key_package"}
/// ```
///
/// This layer checks the size bound only; the group layer decodes the KeyPackage and checks that its credential names
/// the feed that sent it. Valid only in a `direct:` audience.
///
/// `"readmit":"<group id>"` (optional) makes the offer a readmission request from an identity restored from a
/// backup (docs/CONTINUITY.md section 8): the group's committer replaces the sender's old leaf with this KeyPackage in
/// one commit, when the sender is a current member and was not readmitted to that group recently.
/// `"committer_readmission":"<base64url>"` (optional, only with `readmit`) carries the sender's signed warrant naming
/// the recipient as the one member allowed to readmit it, when the sender is the group's committer (the group layer's
/// `CommitterReadmission`).
public struct KeyPackageOffer: Sendable, Hashable {
    /// Largest KeyPackage accepted (a Kith KeyPackage is about 300 bytes).
    public static let maxBytes = 4096
    /// Largest committer readmission warrant accepted (an honest one is 225 bytes).
    public static let maxCommitterReadmissionBytes = 512

    /// The TLS-encoded KeyPackage, base64url.
    public var keyPackage: String
    /// The group (base64url of its 32-byte id) the sender asks to be readmitted to, if any.
    public var readmitGroup: String?
    /// The sender's committer readmission warrant (base64url), with ``readmitGroup`` only.
    public var committerReadmission: String?

    /// Creates the content from the KeyPackage bytes; `readmitGroup` makes it a readmission request for that group,
    /// and `committerReadmission` (the encoded warrant) asks the recipient to readmit the sender as the group's committer.
    public init(keyPackageBytes: [UInt8], readmitGroup: String? = nil, committerReadmission: [UInt8]? = nil) {
        keyPackage = Base64URL.encode(keyPackageBytes)
        self.readmitGroup = readmitGroup
        self.committerReadmission = readmitGroup == nil ? nil : committerReadmission.map { Base64URL.encode($0) }
    }

    /// The decoded warrant bytes, if any.
    public var committerReadmissionBytes: [UInt8]? { committerReadmission.flatMap { try? Base64URL.decode($0) } }

    /// The decoded KeyPackage bytes.
    public var keyPackageBytes: [UInt8] { (try? Base64URL.decode(keyPackage)) ?? [] }

    init(_ fields: ContentFields) throws(FeedError) {
        keyPackage = try fields.requiredString("key_package")
        guard keyPackage.utf8.count <= (Self.maxBytes + 2) / 3 * 4, let bytes = try? Base64URL.decode(keyPackage),
              !bytes.isEmpty, bytes.count <= Self.maxBytes else {
            throw fields.fail("'key_package' must be base64url of 1...\(Self.maxBytes) bytes")
        }
        readmitGroup = try fields.optionalString("readmit")
        if let readmitGroup { _ = try fields.bytes(readmitGroup, "readmit", length: 32) }
        committerReadmission = try fields.optionalString("committer_readmission")
        if let committerReadmission {
            guard readmitGroup != nil else { throw fields.fail("'committer_readmission' needs 'readmit'") }
            guard committerReadmission.utf8.count <= (Self.maxCommitterReadmissionBytes + 2) / 3 * 4, let bytes = try? Base64URL.decode(committerReadmission),
                  !bytes.isEmpty, bytes.count <= Self.maxCommitterReadmissionBytes else {
                throw fields.fail("'committer_readmission' must be base64url of 1...\(Self.maxCommitterReadmissionBytes) bytes")
            }
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["key_package"] = .string(keyPackage)
        if let readmitGroup { object["readmit"] = .string(readmitGroup) }
        if let committerReadmission { object["committer_readmission"] = .string(committerReadmission) }
        return object
    }
}
