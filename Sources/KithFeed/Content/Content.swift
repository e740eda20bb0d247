import KithCanonical

/// A decrypted content object (spec 5), the plaintext of `content_enc`.
///
/// The plaintext bytes are the RFC 8785 canonical JSON of the object, so `type` is not
/// necessarily the first key (spec 5 asks for that, but canonical ordering governs; readers
/// must not depend on key order). Unknown fields of known types are ignored; unknown types
/// are kept whole so they can be stored and relayed but are not rendered.
public enum Content: Sendable, Hashable {
    case post(Post)
    case reaction(Reaction)
    case profileUpdate(ProfileUpdate)
    case contactIntroduction(ContactIntroduction)
    case keyRotation(KeyRotation)
    case groupEvent(GroupEvent)
    case tombstone(Tombstone)
    /// One-time prekeys for a contact (Kith extension, direct audience only).
    case prekeyBatch(PrekeyBatch)
    /// One MLS KeyPackage for a contact (Kith extension, direct audience only).
    case keyPackageOffer(KeyPackageOffer)
    /// Where a joiner finds a group's ratchet tree sent out of band (Kith extension, direct audience only).
    case groupTreeOffer(GroupTreeOffer)
    /// A request to join a group through an invite (Kith extension, direct audience only).
    case inviteJoinRequest(InviteJoinRequest)
    /// An invite's creator refusing a join request (Kith extension, direct audience only).
    case inviteJoinError(InviteJoinError)
    /// Push whitelist tokens for a contact (Kith extension `push_tokens`, direct audience only).
    case pushTokens(PushTokens)
    /// A recovery share handed to a guardian (`recovery_share`, direct audience only).
    case recoveryShare(RecoveryShareHandover)
    /// Revokes the recovery shares a guardian holds for the sender (`recovery_revoke`, direct audience only).
    case recoveryRevocation(RecoveryRevocation)
    /// A type this version does not know.
    case unknown(type: String, object: JSONObject)

    /// Bounds for content JSON.
    static let jsonLimits = JSONLimits(
        maxBytes: FeedLimits.maxContentJSONBytes,
        maxDepth: 8,
        maxStringBytes: FeedLimits.maxContentJSONBytes,
        maxContainerElements: 256,
        maxTotalValues: 2048
    )

    /// The content's `type`.
    public var type: String {
        switch self {
        case .post: "post"
        case .reaction: "reaction"
        case .profileUpdate: "profile_update"
        case .contactIntroduction: "contact_introduction"
        case .keyRotation: "key_rotation"
        case .groupEvent: "group_event"
        case .tombstone: "tombstone"
        case .prekeyBatch: "prekey_batch"
        case .keyPackageOffer: "mls_key_package"
        case .groupTreeOffer: "mls_group_tree"
        case .inviteJoinRequest: "invite_join_request"
        case .inviteJoinError: "invite_join_error"
        case .pushTokens: "push_tokens"
        case .recoveryShare: "recovery_share"
        case .recoveryRevocation: "recovery_revoke"
        case .unknown(let type, _): type
        }
    }

    /// True for the types of spec 5 that this version renders.
    public var isKnown: Bool {
        if case .unknown = self { return false }
        return true
    }

    /// Parses decrypted content bytes and checks them against the envelope's type.
    ///
    /// - Throws: ``FeedError/contentTypeMismatch(envelope:content:)`` when the types differ (a hard
    ///   error: the content is never shown; the store withholds it), ``FeedError/invalidContent(type:reason:)`` for a
    ///   broken rule.
    public static func parse(_ bytes: [UInt8], envelopeType: String) throws(FeedError) -> Content {
        let value: JSONValue
        do {
            value = try CanonicalJSON.parse(bytes, limits: jsonLimits)
        } catch {
            throw .invalidContent(type: envelopeType, reason: "not valid JSON: \(error.description)")
        }
        guard let object = value.objectValue else { throw .invalidContent(type: envelopeType, reason: "not a JSON object") }
        guard let type = object["type"]?.stringValue else {
            throw .invalidContent(type: envelopeType, reason: "'type' is missing or not a string")
        }
        guard type.utf8.elementsEqual(envelopeType.utf8) else {
            throw .contentTypeMismatch(envelope: envelopeType, content: type)
        }
        let fields = ContentFields(object: object, type: type)
        switch type {
        case "post": return .post(try Post(fields))
        case "reaction": return .reaction(try Reaction(fields))
        case "profile_update": return .profileUpdate(try ProfileUpdate(fields))
        case "contact_introduction": return .contactIntroduction(try ContactIntroduction(fields))
        case "key_rotation": return .keyRotation(try KeyRotation(fields))
        case "group_event": return .groupEvent(try GroupEvent(fields))
        case "tombstone": return .tombstone(try Tombstone(fields))
        case "prekey_batch": return .prekeyBatch(try PrekeyBatch(fields))
        case "mls_key_package": return .keyPackageOffer(try KeyPackageOffer(fields))
        case "mls_group_tree": return .groupTreeOffer(try GroupTreeOffer(fields))
        case "invite_join_request": return .inviteJoinRequest(try InviteJoinRequest(fields))
        case "invite_join_error": return .inviteJoinError(try InviteJoinError(fields))
        case "push_tokens": return .pushTokens(try PushTokens(fields))
        case "recovery_share": return .recoveryShare(try RecoveryShareHandover(fields))
        case "recovery_revoke": return .recoveryRevocation(try RecoveryRevocation(fields))
        default: return .unknown(type: type, object: object)
        }
    }

    /// The JSON object of this content, including `type`.
    public var jsonObject: JSONObject {
        var object: JSONObject
        switch self {
        case .post(let post): object = post.jsonMembers
        case .reaction(let reaction): object = reaction.jsonMembers
        case .profileUpdate(let update): object = update.jsonMembers
        case .contactIntroduction(let introduction): object = introduction.jsonMembers
        case .keyRotation(let rotation): object = rotation.jsonMembers
        case .groupEvent(let event): object = event.jsonMembers
        case .tombstone(let tombstone): object = tombstone.jsonMembers
        case .prekeyBatch(let batch): object = batch.jsonMembers
        case .keyPackageOffer(let offer): object = offer.jsonMembers
        case .groupTreeOffer(let offer): object = offer.jsonMembers
        case .inviteJoinRequest(let request): object = request.jsonMembers
        case .inviteJoinError(let error): object = error.jsonMembers
        case .pushTokens(let tokens): object = tokens.jsonMembers
        case .recoveryShare(let handover): object = handover.jsonMembers
        case .recoveryRevocation(let revocation): object = revocation.jsonMembers
        case .unknown(_, let members): object = members
        }
        object["type"] = .string(type)
        return object
    }

    /// The canonical plaintext bytes, after checking the same rules a reader applies.
    public func canonicalBytes() throws(FeedError) -> [UInt8] {
        let bytes = CanonicalJSON.serialize(jsonObject)
        guard bytes.count <= FeedLimits.maxContentJSONBytes else {
            throw .invalidContent(type: type, reason: "larger than \(FeedLimits.maxContentJSONBytes) bytes")
        }
        _ = try Content.parse(bytes, envelopeType: type)
        return bytes
    }
}
