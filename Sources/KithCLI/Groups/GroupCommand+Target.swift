import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

extension GroupCommand {
    /// Names the group an operation is about.
    struct Target: ParsableArguments {
        @Argument(help: "The group: its name, id, or an id prefix (4+ characters).")
        var group: String
    }
}
