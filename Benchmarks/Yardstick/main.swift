// The start-up yardstick of `make bench`: the least a Swift program that imports Foundation costs, built with the
// same flags as authvault (release, static Swift runtime), so that ratios to it hold on any machine.
import Foundation

print("hello")
