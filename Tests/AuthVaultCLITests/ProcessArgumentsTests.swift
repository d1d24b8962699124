import Testing

@testable import AuthVaultCLI

/// The kernel's copy of the arguments, read when the Swift runtime could not find them (a preloaded libfaketime).
@Suite struct ProcessArgumentsTests {
    @Test func theKernelsNulTerminatedArgumentsAreSplit() {
        let bytes = Array("/usr/bin/authvault\0token\0\0--json\0".utf8)
        #expect(ProcessArguments.split(bytes) == ["/usr/bin/authvault", "token", "", "--json"])
        #expect(ProcessArguments.split([]) == ["authvault"])
    }

    @Test func theRuntimesArgumentsComeFirst() {
        #expect(ProcessArguments.current() == CommandLine.arguments)
    }
}
