/// True when both strings hold the same bytes, in a time that does not depend on where they first differ, so the
/// expected `state` cannot be found byte by byte. Lengths are not secret and return false at once.
@inline(never)
func constantTimeEquals(_ left: String, _ right: String) -> Bool {
    let leftBytes = Array(left.utf8), rightBytes = Array(right.utf8)
    guard leftBytes.count == rightBytes.count else { return false }
    var difference: UInt8 = 0
    for index in leftBytes.indices { difference |= leftBytes[index] ^ rightBytes[index] }
    return difference == 0
}
