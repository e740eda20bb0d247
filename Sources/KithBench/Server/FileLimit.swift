import Foundation

/// Raises this process's open-file limit to its hard limit (the benchmark's own, inherited by its
/// server child; the product never raises it).
enum FileLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; answers the new soft limit.
    @discardableResult
    static func raiseToHard() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resource, &limit)
            _ = getrlimit(resource, &limit)
        }
        return Int(limit.rlim_cur)
    }
}
