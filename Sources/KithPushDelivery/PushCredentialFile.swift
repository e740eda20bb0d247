import Foundation

/// Reads small credential files (PEM keys, service-account JSON) with a size bound.
enum PushCredentialFile {
    /// The largest credential file read: PEM keys and service-account JSON are a few KiB.
    static let maxBytes = 64 * 1024

    /// The file's text.
    ///
    /// - Throws: ``PushConfigurationError/unreadableFile(path:reason:)`` or ``PushConfigurationError/fileTooLarge(path:size:limit:)``.
    static func read(_ path: String) throws(PushConfigurationError) -> String {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else { throw PushConfigurationError.fileTooLarge(path: path, size: size, limit: maxBytes) }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as PushConfigurationError {
            throw error
        } catch {
            throw .unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        guard data.count <= maxBytes else { throw .fileTooLarge(path: path, size: data.count, limit: maxBytes) }
        guard let text = String(data: data, encoding: .utf8) else { throw .unreadableFile(path: path, reason: "not UTF-8 text") }
        return text
    }
}
