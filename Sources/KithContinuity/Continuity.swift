/// The continuity formats of issue 28, as pure values: the sealed backup container (`Backup/`) and the recovery
/// shares handed to guardians (`Recovery/`). No storage and no I/O beyond the streams a caller hands in; the facade
/// (`Sources/Kith/Continuity/`) decides what goes into a backup and what a restore re-establishes.
public enum Continuity {
    /// The media type prefix of every continuity file Kith writes (`application/vnd.kith.<kind>`).
    public static let mediaTypePrefix = "application/vnd.kith."
}
