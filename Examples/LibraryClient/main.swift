import AuthVaultApp
import FoundationEssentials
import HTTPTransport
#if canImport(Glibc)
import Glibc
#endif

// The AuthVault libraries as an application uses them: a profile `authvault configure` made, opened by name, gives a
// valid access token (refreshed first when it is due), which goes to an HTTP API as `Authorization: Bearer`. Prints
// the API's status and answer, never the token. README.md says how to run it.

func callAPI() async throws(ExampleError) -> HTTPResponse {
    let settings: ExampleSettings
    do {
        settings = try ExampleSettings(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
        throw .usage(error.message)
    }
    // The profile as `authvault configure` wrote it: its region, issuer, JWKS and vault, and where a browser
    // session is refreshed, all resolved by the application layer the CLI uses.
    let application = Application(environment: EnvironmentVariables(ProcessInfo.processInfo.environment),
                                  configPath: settings.configPath, userAgent: "authvault-library-example")
    let token: String
    do throws(ApplicationError) {
        let session = try await application.openProfile(named: settings.profile)
        do {
            token = try await session.store.validAccessToken().withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw ApplicationError.store(error)
        }
    } catch {
        throw .application(error)
    }
    let transport = CurlTransport(configuration: CurlTransportConfiguration(userAgent: "authvault-library-example"))
    let request = HTTPRequest(url: settings.apiURL, headers: [HTTPHeader(name: "Authorization", value: "Bearer \(token)")])
    do { return try await transport.send(request) } catch { throw .api(error) }
}

do {
    let response = try await callAPI()
    print("HTTP \(response.status)")
    print(String(decoding: response.body, as: UTF8.self))
    exit(response.status < 400 ? 0 : 1)
} catch {
    let message = Array("authvault-library-example: \(error)\n".utf8)
    _ = write(2, message, message.count)
    exit(error.exitStatus)
}
