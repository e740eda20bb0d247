import KithCanonical

/// Creation and checking of PublicMessages (RFC 9420 §6.2).
public enum PublicMessageProtection {
    /// Wraps signed content in a PublicMessage, adding the membership tag for member senders.
    public static func protect(_ content: AuthenticatedContent, suite: CipherSuite, membershipKey: [UInt8], context: GroupContext) throws -> PublicMessage {
        guard content.wireFormat == .publicMessage else { throw MLSFramingError.contentTypeNotAllowed }
        var tag: [UInt8]? = nil
        if case .member = content.content.sender {
            tag = PublicMessage.membershipTag(suite: suite, membershipKey: membershipKey, content: content, context: context)
        }
        return PublicMessage(content: content.content, auth: content.auth, membershipTag: tag)
    }

    /// Checks the membership tag (member senders) and returns the authenticated content; the caller verifies the signature.
    public static func unprotect(_ message: PublicMessage, suite: CipherSuite, membershipKey: [UInt8], context: GroupContext) throws -> AuthenticatedContent {
        let content = message.authenticatedContent
        if case .member = message.content.sender {
            guard let tag = message.membershipTag else { throw MLSFramingError.invalidMembershipTag }
            let expected = PublicMessage.membershipTag(suite: suite, membershipKey: membershipKey, content: content, context: context)
            guard ConstantTime.equals(tag, expected) else { throw MLSFramingError.invalidMembershipTag }
        }
        return content
    }
}
