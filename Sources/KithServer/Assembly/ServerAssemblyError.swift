/// Why ``ServerAssembly/assemble(settings:logger:additionalProviders:)`` could not put the server together.
public enum ServerAssemblyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting that cannot be used as given (a TURN secret file, a push credential); the message names it.
    case invalidSetting(String)
    /// The rendezvous or push store could not be opened.
    case store(RendezvousStoreError)
    /// A file the server keeps beside its database could not be written.
    case fileSystem(path: String, reason: String)

    /// One sentence naming the cause.
    public var description: String {
        switch self {
        case .invalidSetting(let message): message
        case .store(let error): error.description
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        }
    }
}
