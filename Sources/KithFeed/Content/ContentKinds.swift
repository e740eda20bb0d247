extension Content {
    /// The content types this version parses and shows (spec 5, plus Kith's `prekey_batch`, `mls_key_package`,
    /// `mls_group_tree`, `invite_join_request`, `invite_join_error`, `push_tokens`, `recovery_share` and `recovery_revoke`).
    /// An envelope of any other type is stored and relayed but never decrypted (spec 10.2).
    public static let knownTypes: Set<String> = [
        "post", "reaction", "profile_update", "contact_introduction", "key_rotation", "group_event", "tombstone", "prekey_batch", "mls_key_package",
        "mls_group_tree", "invite_join_request", "invite_join_error", "push_tokens",
        "recovery_share", "recovery_revoke",
    ]

    /// True when `type` is one of ``knownTypes``.
    public static func isKnownType(_ type: String) -> Bool { knownTypes.contains(type) }
}
