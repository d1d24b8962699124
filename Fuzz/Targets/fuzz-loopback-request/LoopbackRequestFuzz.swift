import FuzzSupport
import Loopback

/// The loopback listener's request parser: the request line and header fields of a complete head (the
/// `Authorization` field the credentials endpoint reads), the line judged against the callback path and the
/// expected state (the query's percent-decoding included).
@main enum LoopbackRequestFuzz: FuzzTarget {
    static let matcher = CallbackMatcher(path: "/callback", expectedState: "fuzz-state")

    static func test(_ input: [UInt8]) {
        guard let request = RequestHead(head: input[...]) else { return }
        _ = matcher.judge(request.line)
    }
}
