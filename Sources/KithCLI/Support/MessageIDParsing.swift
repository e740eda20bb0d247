import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

func parseMessageID(_ text: String) throws -> MessageID {
    do throws(FeedError) { return try MessageID(text) } catch { throw KithError.feed(error) }
}
