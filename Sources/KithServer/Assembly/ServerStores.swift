import Foundation

/// The stores ``ServerAssembly`` opens: SQLite files, or one PostgreSQL database shared by several nodes.
struct ServerStores: Sendable {
    /// Rooms and memberships.
    let store: any RendezvousStore
    /// The push gateway's and push service's state.
    let pushStore: any PushStore
    /// Events to and from the other nodes (PostgreSQL only).
    let fanout: PostgresSignalBus?
    /// Where the state lives, fit to print (no password).
    let description: String
    /// The directory of the SQLite file, where the VAPID key is kept (nil: PostgreSQL or an in-memory database).
    let sqliteDirectory: String?

    /// Opens the stores `settings` name: PostgreSQL with fan-out when ``ServerSettings/databaseURL`` is not empty,
    /// else the SQLite file ``ServerSettings/databasePath`` (in memory when nil) with `push.sqlite` beside it.
    static func open(settings: ServerSettings, nodeID: String) async throws(ServerAssemblyError) -> ServerStores {
        let url = settings.databaseURL ?? ""
        do throws(RendezvousStoreError) {
            if !url.isEmpty {
                let shared = try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: nodeID)
                // Nodes on one database reach each other's connections through LISTEN/NOTIFY.
                var options = PostgresFanoutOptions()
                options.deadNodeAfterSeconds = settings.deadNodeAfterSeconds
                options.heartbeatInterval = .seconds(min(5, max(1, settings.deadNodeAfterSeconds / 3)))
                let fanout = try await PostgresSignalBus.open(store: shared, nodeID: nodeID, options: options)
                let pushStore = try await openPush { () async throws(PushStoreError) in try await PostgresPushStore.open(store: shared) }
                return ServerStores(store: shared, pushStore: pushStore, fanout: fanout, description: redacted(url), sqliteDirectory: nil)
            }
            let path = settings.databasePath.flatMap { $0.isEmpty ? nil : $0 }
            let store = try SQLiteRendezvousStore.open(path: path)
            let directory = path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            let pushPath = directory?.appendingPathComponent("push.sqlite").path
            let pushStore = try await openPush { () async throws(PushStoreError) in try SQLitePushStore.open(path: pushPath) }
            return ServerStores(store: store, pushStore: pushStore, fanout: nil, description: path ?? "in memory", sqliteDirectory: directory?.path)
        } catch {
            throw .store(error)
        }
    }

    /// Opens the push store, reporting a failure like the rendezvous store's.
    private static func openPush(_ open: () async throws(PushStoreError) -> any PushStore) async throws(RendezvousStoreError) -> any PushStore {
        do throws(PushStoreError) {
            return try await open()
        } catch {
            throw .openFailed(path: "push", reason: error.description)
        }
    }

    /// A database URL without its password, for printing.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres"
    }
}
