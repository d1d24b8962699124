import AuthVaultApp
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

// The AuthVault libraries as an application uses them: a profile `authvault configure` made, opened by name, sends
// an authorized request to an HTTP API (its access token as `Authorization: Bearer`, refreshed first when it is due,
// and once more if the API answers 401). Prints the API's status and answer, never the token. README.md says how to
// run it.

func callAPI() async throws(ExampleError) -> HTTPResponse {
    let settings: ExampleSettings
    do {
        settings = try ExampleSettings(arguments: Array(CommandLine.arguments.dropFirst()))
    } catch {
        throw .usage(error.message)
    }
    // The profile as `authvault configure` wrote it: its region, issuer, JWKS and vault, and where a browser
    // session is refreshed, all resolved by the application layer the CLI uses.
    let application = Application(
        environment: EnvironmentVariables(ProcessInfo.processInfo.environment),
        configPath: settings.configPath, userAgent: "authvault-library-example")
    do throws(ApplicationError) {
        let session = try await application.openProfile(named: settings.profile)
        return try await session.authorizedRequest(HTTPRequest(url: settings.apiURL))
    } catch {
        throw .application(error)
    }
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
