import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithIdentity
import KithNearby
import KithStore
import KithSync
import KithTerminal
import Synchronization

extension SyncCommand {
    /// `kith sync nearby [--duration S] [--port N] [--group G] [--beacon-port N] [--interface A] [--no-blobs]`.
    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find contacts on the local network (UDP multicast beacons only contacts recognise) and sync with each.",
            discussion: "Beacons change every 10 minutes and carry one 8-byte tag per contact (padded with random tags), so a stranger on the network learns nothing stable. Each contact found is synced once over TCP."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        @Option(help: "Seconds to announce and listen.")
        var duration: Double = 30

        @Option(help: "TCP port of this device's sync listener (0 picks a free one).")
        var port: Int = 7455

        @Option(help: "IPv4 multicast group of the beacons.")
        var group: String = NearbyLimits.defaultNearbyGroup

        @Option(name: .customLong("beacon-port"), help: "UDP port of the beacons.")
        var beaconPort: Int = NearbyLimits.defaultNearbyPort

        @Option(help: "IPv4 address of the interface to use (default: the system's; 127.0.0.1 for one machine).")
        var interface: String?

        func run() async throws {
            try await Output.run {
                guard duration > 0, duration <= 86_400 else { throw KithError.input(.invalid("--duration must be between 0 and 86400 seconds")) }
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let json = global.json
                let (duration, port, group, beaconPort, interface) = (duration, port, group, beaconPort, interface)
                let datagrams = try await UDPMulticastTransport.open(group: group, port: beaconPort, interfaceAddress: interface)
                let options = NearbyOptions(tcpHost: interface ?? "0.0.0.0", tcpPort: port, duration: duration)
                let results = try await NearbySync(agent: agent, datagrams: datagrams, options: options).run { event in
                    guard !json else { return }
                    SyncRun.describe(event)
                }
                SyncRun.printNearby(results, json: json)
            }
        }
    }
}
