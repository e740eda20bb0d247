import KithCanonical

/// Reads a backup as a stream: checks the header and key, opens chunks one at a time and hands out records in
/// order. A wrong key is reported before any record is returned; truncation, reordering or tampering is
/// reported when the damaged chunk is reached, so a caller that must not act on a damaged file reads it through
/// once (`verify`) before acting.
public struct BackupReader<Input: BackupInput> {
    /// The parsed header.
    public let header: BackupHeader
    /// The manifest (first record).
    public private(set) var manifest: BackupManifest
    /// Bytes read from the input so far.
    public private(set) var bytesRead: UInt64 = 0

    private var input: Input
    private let cipher: BackupChunkCipher
    private var raw: [UInt8] = []
    private var plain: [UInt8] = []
    private var plainOffset = 0
    private var counter: UInt64 = 0
    private var sawFinalChunk = false
    private var sawEnd = false
    private var recordCount: UInt64 = 0

    /// Opens a backup: parses the header, derives the key, checks it and reads the manifest.
    public init(input: Input, secret: BackupSecret) throws(BackupError) {
        self.input = input
        let headerBytes = try Self.readExactly(&self.input, BackupHeader.encodedSize)
        header = try BackupHeader.parse(headerBytes)
        let (cipher, keyCheck) = try secret.cipher(for: header)
        let storedCheck = try Self.readExactly(&self.input, BackupChunkCipher.keyCheckSize)
        guard storedCheck.count == keyCheck.count, ConstantTime.equals(storedCheck, keyCheck) else { throw .wrongKeyOrNotABackup }
        self.cipher = cipher
        bytesRead = UInt64(BackupHeader.encodedSize + BackupChunkCipher.keyCheckSize)
        manifest = BackupManifest(backupID: "", feedID: "", createdAt: 0, schemaVersion: 0, counts: [:], window: nil, includesBlobs: false)
        guard let first = try nextFramed(), first.kind == .manifest else { throw .malformed("the first record is not the manifest") }
        manifest = try BackupManifest.parse(first.body)
        guard manifest.backupID == Hex.encode(header.fileID) else { throw .tampered("the manifest names another file id than the header") }
    }

    /// The next record after the manifest, or nil once the end record has been checked against the count and the
    /// input is exhausted.
    public mutating func next() throws(BackupError) -> BackupRecord? {
        if sawEnd { return nil }
        guard let record = try nextFramed() else { throw .tampered("the payload ended without its end record") }
        switch record.kind {
        case .manifest:
            throw .malformed("a second manifest")
        case .end:
            var reader = ByteReader(record.body)
            let count: UInt64
            do { count = try reader.readUInt64(); try reader.expectEnd() } catch { throw .malformed("the end record is not 8 bytes") }
            guard count == recordCount else { throw .tampered("the end record counts \(count) records, the file holds \(recordCount)") }
            // The writer always seals the end record's last byte in the final chunk.
            guard sawFinalChunk, plainOffset == plain.count else { throw .malformed("bytes follow the end record") }
            sawEnd = true
            return nil
        default:
            recordCount += 1
            return record
        }
    }

    /// Reads every remaining record, discarding them: a full integrity check with bounded memory.
    public mutating func verifyRemaining(_ visit: (BackupRecord) -> Void = { _ in }) throws(BackupError) {
        while let record = try next() { visit(record) }
    }

    private mutating func nextFramed() throws(BackupError) -> BackupRecord? {
        guard try ensurePlain(6) else {
            if plainOffset == plain.count { return nil }
            throw .tampered("the payload ends inside a record header")
        }
        let kind = UInt16(plain[plainOffset]) << 8 | UInt16(plain[plainOffset + 1])
        let length = Int(plain[plainOffset + 2]) << 24 | Int(plain[plainOffset + 3]) << 16
            | Int(plain[plainOffset + 4]) << 8 | Int(plain[plainOffset + 5])
        let limit = kind == BackupRecordKind.manifest.rawValue ? BackupLimits.maximumManifest : BackupLimits.maximumRecordBody
        guard length <= limit else { throw .malformed("a record of kind \(kind) claims \(length) bytes, more than \(limit)") }
        guard try ensurePlain(6 + length) else { throw .tampered("the payload ends inside a record") }
        let body = Array(plain[plainOffset + 6 ..< plainOffset + 6 + length])
        plainOffset += 6 + length
        return BackupRecord(kind: BackupRecordKind(rawValue: kind), body: body)
    }

    /// Makes at least `count` unread plaintext bytes available; false when the payload ends first.
    private mutating func ensurePlain(_ count: Int) throws(BackupError) -> Bool {
        while plain.count - plainOffset < count {
            if sawFinalChunk { return false }
            _ = try fillChunk()
        }
        return true
    }

    /// Opens the next chunk into `plain`; false when there is none.
    @discardableResult
    private mutating func fillChunk() throws(BackupError) -> Bool {
        if sawFinalChunk { return false }
        let sealedSize = BackupLimits.chunkSize + BackupLimits.tagSize
        let more = try Self.readExactly(&input, sealedSize + 1 - raw.count)
        raw += more
        bytesRead += UInt64(more.count)
        let isLast = raw.count <= sealedSize
        let sealed = isLast ? raw : Array(raw.prefix(sealedSize))
        raw = isLast ? [] : Array(raw.suffix(from: sealedSize))
        guard let opened = try cipher.open(sealed, counter: counter, isLast: isLast) else {
            throw .tampered(isLast ? "chunk \(counter) (the last present) does not authenticate: the file is truncated or altered"
                                   : "chunk \(counter) does not authenticate: it was altered, reordered or taken from another file")
        }
        if plainOffset > 0 {
            plain.removeFirst(plainOffset)
            plainOffset = 0
        }
        plain += opened
        counter += 1
        sawFinalChunk = isLast
        return true
    }

    private static func readExactly(_ input: inout Input, _ count: Int) throws(BackupError) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            let piece = try input.read(upTo: count - out.count)
            if piece.isEmpty { break }
            out += piece
        }
        return out
    }
}
