import AsyncHTTPClient
import KithPushDelivery
import Logging
import NIOSSL

/// `kith serve` put together from its ``ServerSettings``: the one assembly path the command line and the
/// benchmark share.
///
/// It reads the TURN secret file, opens the store (the SQLite file of ``ServerSettings/databasePath``, or the
/// PostgreSQL database of ``ServerSettings/databaseURL`` with LISTEN/NOTIFY fan-out between nodes), the push store
/// beside it, and makes the push providers (Web Push always; APNs and FCM when
/// ``ServerSettings/pushProviders`` names their credentials), all sharing one HTTP client that
/// ``run(onListening:)`` closes when the server stops.
///
/// ```swift
/// let settings = try ServerSettings(flags: flags, environment: ProcessInfo.processInfo.environment)
/// let assembly = try await ServerAssembly.assemble(settings: settings)
/// try await assembly.run { host, port in print("listening on \(host):\(port), database \(assembly.database)") }
/// ```
public struct ServerAssembly: Sendable {
    /// The server, ready to run.
    public let server: RendezvousServer
    /// Where its state lives, fit to print: the SQLite file, or the PostgreSQL URL without its password.
    public let database: String
    /// The HTTP client every push provider delivers with.
    let httpClient: HTTPClient
    /// The Web Push clients pinned to checked addresses.
    let pinnedClients: PinnedHTTPClients

    /// Assembles the server `settings` describe; `logger` is the server's, `additionalProviders` come after the
    /// configured ones (the first provider of a kind wins).
    ///
    /// Throws ``ServerAssemblyError/invalidSetting(_:)`` for a TURN secret file or push credential that cannot be
    /// used, ``ServerAssemblyError/store(_:)`` when a database cannot be opened.
    public static func assemble(
        settings: ServerSettings, logger: Logger = Logger(label: "kith.serve"), additionalProviders: [any PushProvider] = []
    ) async throws(ServerAssemblyError) -> ServerAssembly {
        var configuration = RendezvousServerConfiguration(
            host: settings.host, port: settings.port, limits: settings.limits, turn: try TURNConfiguration.load(settings: settings),
            push: PushConfiguration(providers: [], publicURL: settings.publicURL, limits: settings.pushLimits))
        if let tls = settings.tls {
            configuration.tls = try TLSConfiguration.server(certificateFile: tls.certificateFile, keyFile: tls.keyFile)
        }
        let stores = try await ServerStores.open(settings: settings, nodeID: configuration.nodeID)
        if stores.fanout != nil {
            // Messages stored through another node arrive by LISTEN/NOTIFY; a slow poll catches any
            // notification lost while the listener reconnects.
            configuration.push.limits.subscriberPollInterval = .seconds(30)
        }
        // One HTTP client for every provider: it never follows a redirect (a push service could otherwise send
        // the gateway to an address its SSRF guard refuses).
        let httpClient = PushHTTPSettings.makeHTTPClient()
        // Web Push deliveries to a checked name connect to the checked address (DNS rebinding).
        let pinnedClients = PinnedHTTPClients()
        do throws(ServerAssemblyError) {
            configuration.push.providers = try PushProviderAssembly.providers(
                settings: settings, vapidKeyDirectory: stores.sqliteDirectory, httpClient: httpClient, pinnedClients: pinnedClients)
                + additionalProviders
        } catch {
            try? await httpClient.shutdown()
            await pinnedClients.shutdown()
            throw error
        }
        // One SSRF policy, whatever the bind address: registration refuses the Web Push endpoints the
        // provider would refuse on every knock.
        configuration.push.webPushEndpointPolicy = settings.webPushEndpointPolicy
        let server = RendezvousServer(
            configuration: configuration, store: stores.store, logger: logger, fanout: stores.fanout, pushStore: stores.pushStore)
        return ServerAssembly(server: server, database: stores.description, httpClient: httpClient, pinnedClients: pinnedClients)
    }

    /// Runs the server until SIGINT or SIGTERM (see ``RendezvousServer/run(onListening:)``), then closes the push
    /// providers' HTTP client.
    public func run(onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws {
        do {
            try await server.run(onListening: onListening)
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// Closes the push providers' HTTP client; for an assembly that is not run (``run(onListening:)`` closes it itself).
    public func close() async {
        try? await httpClient.shutdown()
        await pinnedClients.shutdown()
    }
}
