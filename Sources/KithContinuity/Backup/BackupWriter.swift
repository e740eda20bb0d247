import Crypto
import KithCanonical

/// Writes a backup as a stream: header, key check, then the records sealed in 64 KiB chunks. Memory stays at
/// about one chunk plus the record being appended.
///
///     var writer = try BackupWriter(output: out, secret: .recoveryKey(key), manifest: manifest)
///     try writer.append(BackupRecord(kind: .seed, body: seedBytes))
///     try writer.finish()
public struct BackupWriter<Output: BackupOutput> {
    /// The header written (its file id is the manifest's backup id).
    public let header: BackupHeader
    /// Bytes written to the output so far.
    public private(set) var bytesWritten: UInt64 = 0
    /// Records appended after the manifest.
    public private(set) var recordCount: UInt64 = 0

    private var output: Output
    private let cipher: BackupChunkCipher
    private var pending: [UInt8] = []
    private var counter: UInt64 = 0
    private var finished = false

    /// Starts a backup and writes the header and the manifest (whose `backupID` is replaced by the file id).
    public init(output: Output, secret: BackupSecret, manifest: BackupManifest) throws(BackupError) {
        try self.init(output: output, secret: secret, manifest: manifest, kdf: secret.writingKDF, randomBytes: BackupRandom.system)
    }

    /// The seam for vectors and tests: fixed randomness and a chosen KDF.
    init(output: Output, secret: BackupSecret, manifest: BackupManifest, kdf: BackupKDF,
         randomBytes: (Int) -> [UInt8]) throws(BackupError) {
        try kdf.validate()
        let header = BackupHeader(kdf: kdf, salt: randomBytes(BackupLimits.saltSize),
                                  fileID: randomBytes(BackupLimits.fileIDSize), noncePrefix: randomBytes(BackupLimits.noncePrefixSize))
        let (cipher, keyCheck) = try secret.cipher(for: header)
        self.header = header
        self.cipher = cipher
        self.output = output
        try write(header.encoded + keyCheck)
        var stamped = manifest
        stamped.backupID = Hex.encode(header.fileID)
        let body = stamped.encoded
        guard body.count <= BackupLimits.maximumManifest else { throw .malformed("the manifest is larger than 64 KiB") }
        try appendFramed(BackupRecord(kind: .manifest, body: body))
    }

    /// The output, once `finish()` has run (to read an in-memory backup).
    public var finishedOutput: Output? { finished ? output : nil }

    /// Appends one record. Throws for a manifest or end record (the writer writes those) or an oversized body.
    public mutating func append(_ record: BackupRecord) throws(BackupError) {
        guard !finished else { throw .malformed("append after finish") }
        guard record.kind != .manifest, record.kind != .end else { throw .malformed("the writer writes the manifest and end records itself") }
        guard record.body.count <= BackupLimits.maximumRecordBody else {
            throw .malformed("a \(record.kind) record of \(record.body.count) bytes exceeds \(BackupLimits.maximumRecordBody)")
        }
        try appendFramed(record)
        recordCount += 1
    }

    /// Writes the end record and the final chunk. The file is complete only after this returns.
    public mutating func finish() throws(BackupError) {
        guard !finished else { return }
        var count = ByteWriter(capacity: 8)
        count.write(recordCount)
        try appendFramed(BackupRecord(kind: .end, body: count.bytes))
        let sealed = try cipher.seal(pending[...], counter: counter, isLast: true)
        pending = []
        try write(sealed)
        finished = true
    }

    private mutating func appendFramed(_ record: BackupRecord) throws(BackupError) {
        var frame = ByteWriter(capacity: 6)
        frame.write(record.kind.rawValue)
        frame.write(UInt32(record.body.count))
        pending += frame.bytes
        pending += record.body
        // A chunk is sealed only once more bytes follow it, so the last one always carries the final flag.
        var start = 0
        while pending.count - start > BackupLimits.chunkSize {
            let sealed = try cipher.seal(pending[start..<start + BackupLimits.chunkSize], counter: counter, isLast: false)
            counter += 1
            start += BackupLimits.chunkSize
            try write(sealed)
        }
        if start > 0 { pending.removeFirst(start) }
    }

    private mutating func write(_ bytes: [UInt8]) throws(BackupError) {
        try output.write(bytes)
        bytesWritten += UInt64(bytes.count)
    }
}

/// The system random source the writer draws salt, file id and nonce prefix from.
enum BackupRandom {
    static func system(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
