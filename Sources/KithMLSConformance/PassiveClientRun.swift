import KithMLS
/// What a passive-client case went through: its outcome and the kinds of steps the client followed.
///
/// Interop passive files (`interop/passive/*.json` upstream) share the passive-client schema and may lead the client out
/// of its first group: a commit carrying a ReInit closes the group (RFC 9420 §11.2), and an epoch whose `commit` is a
/// Welcome moves the client into the successor group — the group a ReInit describes, or a subgroup branched from the
/// current one (§11.3). The counts let a runner say which of these a file exercised.
public struct PassiveClientRun: Sendable, Equatable {
    /// The case outcome.
    public var outcome: VectorOutcome
    /// Commits processed (including the ones carrying a ReInit).
    public var commits = 0
    /// Commits that carried a ReInit proposal and closed the group.
    public var reinitCommits = 0
    /// Welcomes into the group described by a committed ReInit that the client joined.
    public var reinitWelcomes = 0
    /// Welcomes into a subgroup branched from the current group that the client joined.
    public var branchWelcomes = 0

    /// Creates a record with no steps.
    public init(outcome: VectorOutcome) { self.outcome = outcome }

    /// True when the case went through a ReInit or branch step.
    public var leftFirstGroup: Bool { reinitCommits + reinitWelcomes + branchWelcomes > 0 }
}
