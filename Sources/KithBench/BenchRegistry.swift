/// Every benchmark suite of the runner, in the order they run by default.
enum BenchRegistry {
    static var suites: [any BenchSuite.Type] { [FeedSuite.self, AudiencesSuite.self, RatchetSuite.self, MLSSuite.self, SyncSuite.self, GroupsSuite.self, TDFSuite.self, QRSuite.self, InvitesSuite.self, ServerSuite.self, PushSuite.self, ContinuitySuite.self] }
}

/// Number formatting for bench output.
enum BenchFormat {
    static func value(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }
}
