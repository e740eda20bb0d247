extension Schema {
    /// Invites (docs/INVITES.md, "Storage"). No invite code, key or group name is stored.
    ///
    /// - `invites_consumed`: single-use invites (by invite id, base64url SHA-256 of the signed payload bytes) that
    ///   admitted someone; a later request with the same invite is refused. Written in the transaction that adds.
    /// - `invite_requests_sent`: join requests this identity sent (creator feed id and invite tag), so a Welcome can be
    ///   matched to a request; `status` is `pending`, `joined` or `refused`.
    static let inviteTables = """
        CREATE TABLE invites_consumed (
            invite_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL,
            requester_feed_id TEXT NOT NULL,
            consumed_at INTEGER NOT NULL
        );
        CREATE TABLE invite_requests_sent (
            creator_feed_id TEXT NOT NULL,
            tag TEXT NOT NULL,
            invite_id TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'pending',
            sent_at INTEGER NOT NULL,
            PRIMARY KEY(creator_feed_id, tag)
        );
        """

    /// Invites for joiners who never met the creator (docs/INVITES.md, "Storage").
    ///
    /// - `invite_cards`: this identity's own full contact cards that its compact cards commit to (by the commitment,
    ///   base64url): those of strangers' invites, so the creator hands a stranger exactly the committed card, and
    ///   those drawn as QR codes, handed over in the card phase of a first sync link (docs/FEED-FORMAT.md 11.9). Public data (a card is
    ///   what a QR code shows); at most ``GroupStoreAccess/maxInviteCards`` rows, the oldest pruned.
    static let inviteStrangerTables = """
        CREATE TABLE invite_cards (
            commitment TEXT PRIMARY KEY,
            card BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        """
}
