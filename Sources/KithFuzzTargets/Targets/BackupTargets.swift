import KithContinuity
import KithStore

extension FuzzTarget {
    /// A backup file as `kith backup verify` / `restore` read it, under a fixed recovery key (bytes 0…31, the key
    /// of the published vector). The first input byte picks what the rest is: even, the whole file (header, KDF
    /// bounds, key check, STREAM chunks); odd, the decrypted payload, sealed correctly under the fixed key first
    /// (`BackupPayloadSeal`), so that record framing, the manifest, the end record and the compact store rows are
    /// reached. Every input ends in a typed error or an accepted file; for an accepted file the store rows must
    /// re-encode to records that decode to the same rows.
    static let backupReader = FuzzTarget(name: "backup-reader", summary: "KithContinuity backup files and payloads, KithStore compact store rows") { input in
        guard let mode = input.first, let key = BackupFuzzKeys.key else { return }
        let rest = Array(input.dropFirst())
        let file: [UInt8]
        if mode & 1 == 0 {
            file = rest
        } else {
            guard let sealed = try? BackupPayloadSeal.seal(payload: rest, key: key) else { return }
            file = sealed
        }
        guard let rows = BackupFuzzKeys.readRows(file, key: key) else { return }
        var encoder = BackupRowEncoder()
        var decoder = BackupRowDecoder()
        var again: [BackupStoreRow] = []
        for output in rows.flatMap({ encoder.encode($0) }) {
            switch output {
            case .tableHeader(let body):
                do { try decoder.readHeader(body) } catch { FuzzProperty.require(false, "a re-encoded table header is refused: \(error)") }
            case .row(let body):
                do { again.append(try decoder.readRow(body)) } catch { FuzzProperty.require(false, "a re-encoded row is refused: \(error)") }
            }
        }
        FuzzProperty.require(again == rows, "store rows do not survive re-encoding")
    }
}

/// The fixed key of the backup target and the reading it does.
enum BackupFuzzKeys {
    static let key: RecoveryKey? = try? RecoveryKey(bytes: (0..<32).map { UInt8($0) })

    /// Reads `file` as a restore's verification pass does: every record, table headers and rows decoded; nil for a
    /// refused file.
    static func readRows(_ file: [UInt8], key: RecoveryKey) -> [BackupStoreRow]? {
        var rows: [BackupStoreRow] = []
        var decoder = BackupRowDecoder()
        do {
            var reader = try BackupReader(input: ByteArrayBackupInput(file), secret: .recoveryKey(key))
            while let record = try reader.next() {
                switch record.kind {
                case .storeTableHeader: try decoder.readHeader(record.body)
                case .storeRow: rows.append(try decoder.readRow(record.body))
                default: break
                }
            }
        } catch {
            return nil
        }
        return rows
    }
}
