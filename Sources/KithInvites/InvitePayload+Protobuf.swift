import Foundation
import KithCanonical
import KithConvos
import SwiftProtobuf

extension InvitePayload {
    /// Serializes in the current format, fields in number order (what Kith signs).
    ///
    /// - Throws: ``InviteError/invalidTag(_:)`` unless the tag is 10 characters of `[A-Za-z0-9]`: Kith writes
    ///   only valid tags.
    public func serializedBytes() throws(InviteError) -> [UInt8] {
        guard ConversationTag.isValid(tag) else { throw .invalidTag(tag) }
        var message = Kith_Convos_Invites_InvitePayload()
        message.conversationToken = Data(conversationToken.bytes)
        message.creatorInboxID = Data(creatorInboxID.bytes)
        message.tag = tag
        if let name { message.name = name }
        if let description { message.description_p = description }
        if let imageURL { message.imageURL = imageURL }
        if let conversationExpiresAtUnix { message.conversationExpiresAtUnix = conversationExpiresAtUnix }
        if let expiresAtUnix { message.expiresAtUnix = expiresAtUnix }
        message.expiresAfterUse = expiresAfterUse
        if let emoji { message.emoji = emoji }
        if let reach {
            try reach.checkBounds()
            var field = Kith_Convos_Invites_KithInviteReach()
            field.compactCard = Data(reach.compactCardBytes)
            if let server = reach.server { field.server = server }
            if let joinCode = reach.joinCode { field.joinCode = joinCode }
            message.kithReach = field
        }
        do {
            return try message.serializedBytes()
        } catch {
            throw .malformedProtobuf("payload does not serialize")
        }
    }

    /// Reads a payload in the current or the legacy (October 2025) form; unknown fields are ignored. Kith's reach
    /// (field 1000), when present, must keep ``InviteReach/checkBounds()``.
    ///
    /// Legacy detection (`convos-invites.md` §6): an inbox id of 64 hex characters is hex text; a token whose first
    /// byte is not `0x01` is base64url text; `Timestamp` messages in fields 7 and 8 are read as seconds.
    ///
    /// - Throws: ``InviteError`` for a malformed protobuf, a missing or oversized field, a bad inbox id or token.
    public init<Bytes: Collection>(serialized input: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let bytes = Array(input)
        guard bytes.count <= InviteLimits.maxSignedInviteBytes else {
            throw .signedInviteTooLarge(bytes: bytes.count, limit: InviteLimits.maxSignedInviteBytes)
        }
        let message: Kith_Convos_Invites_InvitePayload
        do {
            message = try Kith_Convos_Invites_InvitePayload(serializedBytes: bytes)
        } catch {
            throw .malformedProtobuf("payload: \(error)")
        }
        var legacy = false

        let rawInbox = Array(message.creatorInboxID)
        let inbox: InboxID
        switch rawInbox.count {
        case 0: throw .missingField("creator_inbox_id")
        case InviteLimits.inboxIDBytes: inbox = try InboxID(bytes: rawInbox)
        case InviteLimits.inboxIDBytes * 2:
            guard let decoded = InboxID.decodeHex(rawInbox) else { throw .invalidInboxID(bytes: rawInbox.count) }
            inbox = try InboxID(bytes: decoded)
            legacy = true
        default: throw .invalidInboxID(bytes: rawInbox.count)
        }

        let rawToken = Array(message.conversationToken)
        guard !rawToken.isEmpty else { throw .missingField("conversationToken") }
        let token: ConversationToken
        if rawToken[0] == ConversationToken.version {
            token = try ConversationToken(bytes: rawToken)
        } else {
            // 0x01 is not a base64url character, so any other first byte means the legacy text form.
            guard rawToken.count <= Base64URL.encodedLength(of: InviteLimits.maxTokenBytes),
                let decoded = try? Base64URL.decode(String(decoding: rawToken, as: UTF8.self))
            else { throw .fieldSizeOutOfRange(field: "conversationToken", bytes: rawToken.count) }
            token = try ConversationToken(bytes: decoded)
            legacy = true
        }

        guard !message.tag.isEmpty else { throw .missingField("tag") }
        guard message.tag.utf8.count <= InviteLimits.maxTagBytes else {
            throw .fieldSizeOutOfRange(field: "tag", bytes: message.tag.utf8.count)
        }

        self.init(
            conversationToken: token, creatorInboxID: inbox, tag: message.tag,
            name: message.hasName ? message.name : nil,
            description: message.hasDescription_p ? message.description_p : nil,
            imageURL: message.hasImageURL ? message.imageURL : nil,
            conversationExpiresAtUnix: message.hasConversationExpiresAtUnix ? message.conversationExpiresAtUnix : nil,
            expiresAtUnix: message.hasExpiresAtUnix ? message.expiresAtUnix : nil,
            expiresAfterUse: message.expiresAfterUse,
            emoji: message.hasEmoji ? message.emoji : nil)

        if message.hasKithReach {
            let field = message.kithReach
            let reach = InviteReach(
                compactCardBytes: Array(field.compactCard), server: field.server.isEmpty ? nil : field.server,
                joinCode: field.joinCode.isEmpty ? nil : field.joinCode)
            try reach.checkBounds()
            self.reach = reach
        }

        // Fields 7 and 8 with the wrong wire type land in the unknown fields: the legacy Timestamp form.
        if !message.unknownFields.data.isEmpty,
            let old = try? Kith_Convos_Invites_LegacyTimestamps(serializedBytes: bytes)
        {
            if conversationExpiresAtUnix == nil, old.hasConversationExpiresAt {
                conversationExpiresAtUnix = old.conversationExpiresAt.seconds
                legacy = true
            }
            if expiresAtUnix == nil, old.hasExpiresAt {
                expiresAtUnix = old.expiresAt.seconds
                legacy = true
            }
        }
        format = legacy ? .legacy : .current
    }
}
