import ArgumentParser
import Kith
import KithCanonical
import KithStore

/// `kith gc`: garbage collection per spec 9.3.
struct GarbageCollectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Prune old messages of followed feeds to stubs and delete unreferenced blobs."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Messages kept per followed feed (your own feed is never pruned).")
    var maxMessages: Int = 10_000

    @Option(help: "Blob store cap in megabytes.")
    var maxBlobMegabytes: Int = 500

    @Option(help: "Delete unreferenced blobs older than this many days.")
    var blobAgeDays: Int = 7

    func run() async throws {
        try await Output.run {
            guard maxMessages >= 1, maxBlobMegabytes >= 0, blobAgeDays >= 0 else {
                throw KithError.input(.invalid("limits must not be negative (and at least one message is kept)"))
            }
            let account = try await openAccount(global)
            let report = try await account.feed.collectGarbage(GCPolicy(
                maxMessagesPerFeed: maxMessages,
                maxBlobBytes: Int64(maxBlobMegabytes) * 1_000_000,
                unreferencedBlobAge: Int64(blobAgeDays) * 86_400
            ))
            if global.json {
                var object = JSONObject()
                object["pruned_messages"] = .integer(Int64(report.prunedMessages))
                object["deleted_blobs"] = .integer(Int64(report.deletedBlobs))
                object["freed_blob_bytes"] = .integer(report.freedBlobBytes)
                object["remaining_blob_bytes"] = .integer(report.remainingBlobBytes)
                Output.json(.object(object))
            } else {
                Output.line("Pruned \(report.prunedMessages) messages to stubs; deleted \(report.deletedBlobs) blobs (\(report.freedBlobBytes) bytes); \(report.remainingBlobBytes) blob bytes remain.")
            }
        }
    }
}
