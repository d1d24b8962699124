import FuzzSupport
import Loopback

/// The redirect listener's request parser: the request line of a complete head, judged against the callback path
/// and the expected state (the query's percent-decoding included).
@main enum LoopbackRequestFuzz: FuzzTarget {
    static let matcher = CallbackMatcher(path: "/callback", expectedState: "fuzz-state")

    static func test(_ input: [UInt8]) {
        guard let request = RequestLine(head: input[...]) else { return }
        _ = matcher.judge(request)
    }
}
