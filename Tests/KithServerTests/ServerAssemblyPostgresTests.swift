import Foundation
import Hummingbird
import HummingbirdTesting
import KithServer
import Testing

/// ``ServerAssembly`` on a PostgreSQL URL. Runs when `KITH_TEST_POSTGRES_URL` names a database (the test command
/// starts a throwaway cluster: `scripts/postgres-cluster.sh`); `swift test` alone skips it.
@Suite("kith serve assembled on PostgreSQL: the shared store, fan-out and push store",
       .enabled(if: ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"] != nil))
struct ServerAssemblyPostgresTests {
    @Test("a database URL makes two nodes share pairings; the push service polls slowly for lost notifications")
    func twoNodesFromSettings() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"])
        var flags = ServerSettings.Flags()
        flags.port = 0
        flags.deadNodeAfterSeconds = 3
        let settings = try ServerSettings(flags: flags, environment: ["KITH_DATABASE_URL": url])
        let first = try await ServerAssembly.assemble(settings: settings)
        let second = try await ServerAssembly.assemble(settings: settings)
        #expect(first.database == url)
        #expect(first.server.configuration.push.limits.subscriberPollInterval == .seconds(30))
        #expect(first.server.pushDispatcher != nil)
        #expect(first.server.configuration.nodeID != second.server.configuration.nodeID)
        // Codes made unique per run: the database outlives the test.
        let code = String(UInt32.random(in: 100_000_000...999_999_999))
        try await first.server.makeApplication().test(.router) { client in
            let created = try await client.create(code, "dev-a")
            #expect(created.status == 201)
        }
        try await second.server.makeApplication().test(.router) { client in
            let accepted = try await client.accept(code, "dev-b")
            #expect(accepted.status == 200)
        }
        await first.close()
        await second.close()
    }
}
