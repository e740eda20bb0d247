extension Schema {
    /// `fork_evidence.acknowledged_at`: when the user acknowledged a fork (migration `v19-fork-acknowledged`).
    static let forkAcknowledgedColumn = """
        ALTER TABLE fork_evidence ADD COLUMN acknowledged_at INTEGER;
        """
}
