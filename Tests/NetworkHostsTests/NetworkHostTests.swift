import NetworkHosts
import Testing

/// What counts as loopback: parsed addresses and exactly `localhost`, never a name that merely starts like one.
@Suite struct NetworkHostTests {
    @Test(arguments: [
        "127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "[::1]", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST",
        "LocalHost",
    ])
    func loopback(_ text: String) throws {
        #expect(try #require(NetworkHost(text)).isLoopback)
    }

    /// `localhost.` (which libcurl sends to DNS), names that pass a prefix check, inet_aton's shorthands (which
    /// inet_pton refuses: they are names here), other addresses, and the IPv4-mapped form of 127.0.0.1 (a loopback
    /// in disguise, refused rather than unwrapped).
    @Test(arguments: [
        "localhost.", "127.attacker.example", "127.0.0.1.nip.io", "localhost.evil.com", "evil-localhost", "0x7f.1",
        "2130706433", "127.1", "0177.0.0.1", "127.0.0.01", "128.0.0.1", "10.0.0.1", "::2", "::ffff:127.0.0.1",
        "example.com", "[127.0.0.1]",
    ])
    func notLoopback(_ text: String) {
        #expect(NetworkHost(text)?.isLoopback != true)
    }

    @Test func namesAreCaseAndTrailingDotInsensitiveAndAddressesCompareByValue() {
        #expect(NetworkHost("Git.Example.COM.") == NetworkHost("git.example.com"))
        #expect(NetworkHost("[0:0::1]") == NetworkHost("::1"))
        #expect(NetworkHost("127.0.0.1") == .ipv4(0x7F00_0001))
        #expect(NetworkHost("127.0.0.1")?.description == "127.0.0.1")
        #expect(NetworkHost("0:0::1")?.description == "[::1]")
    }

    @Test(arguments: ["", ".", "exa mple.com", "a..b", "host/path", "user@host", "fe80::1%eth0", "bücher.example"])
    func refusesWhatIsNoHost(_ text: String) {
        #expect(NetworkHost(text) == nil)
    }

    @Test func hostAndPort() {
        #expect(HostPort("example.com:8443") == HostPort(host: .name("example.com"), port: 8443))
        #expect(HostPort("Example.com") == HostPort(host: .name("example.com"), port: nil))
        #expect(HostPort("[::1]:8443") == HostPort(host: .ipv6(Array(repeating: 0, count: 15) + [1]), port: 8443))
        #expect(HostPort("::1")?.port == nil)
        #expect(HostPort("[::1]")?.host.isLoopback == true)
        #expect(HostPort("[::1]:8443")?.description == "[::1]:8443")
        for bad in [
            "example.com:", "example.com:0", "example.com:65536", "example.com:80a", "[::1]x", "[::1", "a@b:1", ":443",
        ] {
            #expect(HostPort(bad) == nil, "\(bad)")
        }
    }

    @Test func plainHTTPOnlyToALoopbackAddress() {
        for allowed in [
            "https://cognito-idp.eu-west-1.amazonaws.com/", "http://127.0.0.1:5000/pool", "http://[::1]:8080",
            "HTTP://localhost:9000/x?y", "https://example.com:8443/a#b",
        ] {
            #expect(ServiceURL.isPermitted(allowed), "\(allowed)")
        }
        for refused in [
            "http://127.attacker.example:5000/", "http://127.0.0.1.nip.io/", "http://localhost.evil.com/",
            "http://2130706433/", "http://0x7f.1/", "http://example.com/", "ftp://127.0.0.1/",
            "http://127.0.0.1@evil.example/", "http://evil.example\\@127.0.0.1/", "http://127.0.0.1%2f@evil/",
            "127.0.0.1:5000", "http:///path", "file:///etc/passwd", "http://::1/", "http://::1:8080/",
        ] {
            #expect(!ServiceURL.isPermitted(refused), "\(refused)")
        }
    }
}
