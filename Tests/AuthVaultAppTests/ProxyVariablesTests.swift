import AuthVaultApp
import HTTPTransport
import Testing

/// The proxy variables read as curl reads them, from the environment the application was given.
@Suite struct ProxyVariablesTests {
    private func settings(_ variables: [String: String]) -> HTTPProxySettings {
        Application(environment: EnvironmentVariables(variables), configPath: "/nonexistent").proxySettings
    }

    @Test func noVariablesMeanNoProxy() {
        #expect(settings([:]) == HTTPProxySettings())
    }

    @Test func lowerCaseWinsAndUpperCaseIsReadForHTTPSAndNoProxy() {
        #expect(
            settings(["HTTPS_PROXY": "http://upper:1", "NO_PROXY": ".corp"])
                == HTTPProxySettings(httpsProxy: "http://upper:1", noProxy: ".corp"))
        #expect(
            settings([
                "https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:1", "no_proxy": "a", "NO_PROXY": "b",
            ])
                == HTTPProxySettings(httpsProxy: "http://lower:1", noProxy: "a"))
    }

    /// Plain http goes only to loopback addresses, which never go through a proxy: neither name is read (a web
    /// server even sets HTTP_PROXY from a client's `Proxy` header, httpoxy).
    @Test func plainHTTPProxyVariablesAreNotRead() {
        #expect(settings(["HTTP_PROXY": "http://attacker:1", "http_proxy": "http://proxy:1"]) == HTTPProxySettings())
    }

    @Test func allProxyServesHTTPSWhenItsOwnIsUnset() {
        #expect(
            settings(["ALL_PROXY": "socks5h://proxy:1080"]) == HTTPProxySettings(httpsProxy: "socks5h://proxy:1080"))
        #expect(
            settings(["ALL_PROXY": "socks5h://proxy:1080", "https_proxy": "http://web:1"])
                == HTTPProxySettings(httpsProxy: "http://web:1"))
    }

    @Test func emptyVariablesCountAsUnset() {
        #expect(
            settings(["https_proxy": "", "HTTPS_PROXY": "http://upper:1"])
                == HTTPProxySettings(httpsProxy: "http://upper:1"))
    }
}
