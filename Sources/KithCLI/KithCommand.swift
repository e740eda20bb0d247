import ArgumentParser
import Foundation
import Kith
import Logging

/// `kith`: the command-line client of the Kith messaging engine.
@main
struct KithCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kith",
        abstract: "Kith: privacy-first, physical-first messaging (signed feeds, end-to-end encrypted).",
        discussion: """
            Exit codes: 0 success; 1 verification or import found invalid entries; 2 invalid input; \
            3 no identity in the home (run `kith init`); 4 passphrase missing or wrong; 5 storage failure; \
            6 not yet supported; 64 invalid command-line usage.
            """,
        subcommands: [InitCommand.self, IDCommand.self, CardCommand.self, ContactCommand.self, ContactsCommand.self, PostCommand.self, DirectMessageCommand.self, ReactCommand.self, ProfileCommand.self, DeleteCommand.self, IntroduceCommand.self, RotateKeysCommand.self, BlobCommand.self, LogCommand.self, PrekeysCommand.self, GroupCommand.self, GroupsCommand.self, PersonasCommand.self, FeedCommand.self, GarbageCollectCommand.self, DemoCommand.self, SyncCommand.self, PairCommand.self, ChatCommand.self, InviteCommand.self, ServeCommand.self, TDFCommand.self, CircleCommand.self, PushCommand.self, KnockCommand.self, KnocksCommand.self, BackupCommand.self, RecoveryCommand.self, MoveCommand.self]
    )

    /// Logs go to standard error at the level of `KITH_LOG_LEVEL` (default `error`), one JSON
    /// object per line with `KITH_LOG_FORMAT=json`; they never contain key material or message content.
    static func bootstrapLogging() {
        let level = ProcessInfo.processInfo.environment["KITH_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .error
        let json = ProcessInfo.processInfo.environment["KITH_LOG_FORMAT"] == "json"
        LoggingSystem.bootstrap { label in
            if json { return JSONLogHandler(label: label, logLevel: level) }
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Lets the global options stand before the subcommand (`kith --home DIR log`) as well as
    /// after it, by moving leading `--home`/`--json` to the end of the arguments.
    static func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--json" || argument.hasPrefix("--home=") {
                leading.append(argument)
                index += 1
            } else if argument == "--home", index + 1 < arguments.count {
                leading.append(contentsOf: ["--home", arguments[index + 1]])
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count else { return arguments }
        var rest = Array(arguments[index...])
        if let separator = rest.firstIndex(of: "--") {
            rest.insert(contentsOf: leading, at: separator)
        } else {
            rest.append(contentsOf: leading)
        }
        return rest
    }

    static func main() async {
        bootstrapLogging()
        do {
            var command = try parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
