import Foundation
import KithPush
import KithPushDelivery
import KithServer
import Logging

/// `kith serve` with its push gateway and push service, in a child process of the benchmark (its
/// memory is its own): `kith-bench _push-child` serves the server `kith serve` assembles
/// (``ServerAssembly``) on a free loopback port with APNs and FCM providers that only count (the
/// gateway's own cost, no network), limits loosened for a load generator on one address, and
/// prints `PORT`. Web Push knocks go through the real Web Push provider to the child's own push
/// service (private endpoints allowed: it is on loopback).
enum PushServerChild {
    /// The hidden command line of the child.
    static let command = "_push-child"

    /// A provider for every kind that accepts every notification.
    struct CountingProvider: PushProvider {
        let kind: PushTargetKind
        func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome { .delivered }
    }

    static func run() async -> Never {
        var limits = RendezvousServerLimits()
        limits.requestsPerSource = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        limits.maximumConnections = 30_000
        // The load generator is one source: neither the per-source cap nor the reserve for other sources applies.
        limits.connectionsPerSource = 1_000_000
        limits.reservedConnectionShare = 0
        var push = PushServerLimits()
        let loose = RateLimitRule(burst: 1_000_000, perSecond: 1_000_000)
        push.gatewayRequestsPerSource = loose
        push.accountsPerSource = loose
        push.knocksPerSource = loose
        push.knocksPerToken = loose
        push.pushRequestsPerSource = loose
        push.subscriptionsPerSource = loose
        push.messagesPerCapability = loose
        push.tokensPerAccount = 100_000
        push.maximumSubscribers = 30_000
        push.subscribersPerSource = 30_000
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-bench-push-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            var settings = try ServerSettings(flags: ServerSettings.Flags(), environment: [:])
            settings.port = 0
            settings.limits = limits
            settings.pushLimits = push
            settings.allowPrivatePushEndpoints = true
            settings.databasePath = directory.appendingPathComponent("rendezvous.sqlite").path
            var logger = Logger(label: "kith.bench.push")
            logger.logLevel = .critical
            // APNs and FCM only count (no network); Web Push is the real provider, delivering to this
            // server's own push service on loopback (the end-to-end figures).
            let counting: [any PushProvider] = [CountingProvider(kind: .apns), CountingProvider(kind: .fcm)]
            let assembly = try await ServerAssembly.assemble(settings: settings, logger: logger, additionalProviders: counting)
            try await assembly.run { _, port in
                FileHandle.standardOutput.write(Data("\(port)\n".utf8))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("kith-bench \(command): \(error)\n".utf8))
            exit(1)
        }
    }
}
