import Foundation
import Kith
import KithSync

/// Settings of a ``NearbySync`` run (`kith sync nearby`).
public struct NearbyOptions: Sendable {
    /// Address the TCP listener binds (all interfaces by default, so LAN contacts can connect).
    public var tcpHost: String
    /// TCP port of the listener (0: any free port).
    public var tcpPort: Int
    /// Port announced in beacons when it differs from the bound one (tests, NAT); nil: the bound port.
    public var advertisedPort: Int?
    /// Seconds of discovery.
    public var duration: Double
    /// Seconds between beacons.
    public var beaconInterval: Double
    /// Seconds the side with the higher static key waits before dialing a contact it heard.
    public var dialGrace: Double
    /// Seconds sessions still running at the end of discovery may continue.
    public var sessionGrace: Double
    /// Progress events of every session (nil: none).
    public var observer: (@Sendable (SyncSessionEvent) -> Void)?
    /// The current beacon epoch (injectable for tests).
    public var currentEpoch: @Sendable () -> UInt64

    /// Creates options with the defaults of `kith sync nearby`.
    public init(
        tcpHost: String = "0.0.0.0",
        tcpPort: Int = 7455,
        advertisedPort: Int? = nil,
        duration: Double = 30,
        beaconInterval: Double = NearbyLimits.beaconIntervalSeconds,
        dialGrace: Double? = nil,
        sessionGrace: Double = 60,
        observer: (@Sendable (SyncSessionEvent) -> Void)? = nil,
        currentEpoch: @escaping @Sendable () -> UInt64 = { NearbyBeacon.epoch(unixSeconds: Date().timeIntervalSince1970) }
    ) {
        self.tcpHost = tcpHost
        self.tcpPort = tcpPort
        self.advertisedPort = advertisedPort
        self.duration = duration
        self.beaconInterval = beaconInterval
        self.dialGrace = dialGrace ?? 2 * beaconInterval
        self.sessionGrace = sessionGrace
        self.observer = observer
        self.currentEpoch = currentEpoch
    }
}
