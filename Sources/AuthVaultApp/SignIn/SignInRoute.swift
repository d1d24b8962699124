/// How a sign-in reaches the person, as `login` chooses it from what was asked, the profile and the place it runs;
/// a helper that signs in itself (`HelperSignIn`) takes the same choice as a plain `login`.
public enum SignInRoute: Sendable, Equatable {
    /// A machine profile: its token is fetched with the client credentials, no one signs in.
    case machine
    /// The device authorization grant. `automatic`: a plain login chose it (no browser can be opened here), and
    /// says so.
    case device(automatic: Bool)
    case browser(BrowserDelivery)
    /// The user-pool API: a password, a code Cognito sends, a choice or custom challenges.
    case userPool

    /// How the authorize URL reaches a browser and the code comes back.
    public enum BrowserDelivery: Sendable, Equatable {
        /// Open a browser here (with `command`, else the desktop's); the listener receives the redirect.
        case open(command: String?)
        /// Print the URL and listen: a browser on this machine, or one reaching it through SSH port forwarding.
        case printURL
        /// Print the URL and read the redirect URL (or the code) the person pastes from a browser elsewhere.
        case paste
    }

    /// What the login was asked for, by its options.
    public struct Asked: Sendable, Equatable {
        /// Named as the agent's sign-in answer carries it (`AgentSignIn`), and as login's options spell it.
        public enum Mode: String, Sendable, Equatable {
            case browser
            case noBrowser = "no-browser"
            case paste, device
        }
        public var mode: Mode?
        public var browserCommand: String?
        /// Any browser option (a mode, the command, the identity provider, the timeout).
        public var browserOptionGiven: Bool
        /// Any option of a user-pool sign-in (--password, --username, an answer, ...).
        public var userPoolOptionGiven: Bool

        public init(mode: Mode?, browserCommand: String?, browserOptionGiven: Bool, userPoolOptionGiven: Bool) {
            self.mode = mode
            self.browserCommand = browserCommand
            self.browserOptionGiven = browserOptionGiven
            self.userPoolOptionGiven = userPoolOptionGiven
        }

        /// A plain `login`, which a helper's sign-in is too.
        public static let plain = Asked(
            mode: nil, browserCommand: nil, browserOptionGiven: false, userPoolOptionGiven: false)

        /// A `login` given `mode` (its option) and nothing else; a plain one for nil.
        public static func only(_ mode: Mode?) -> Asked {
            mode.map { Asked(mode: $0, browserCommand: nil, browserOptionGiven: true, userPoolOptionGiven: false) }
                ?? plain
        }
    }

    /// Why there is no route; the front end words each with its options.
    public enum Refusal: Error, Sendable {
        case device(DeviceSignInError)
        /// A browser was asked for, and the profile has no Hosted UI nor authorization endpoint.
        case noBrowserSignIn
        /// A browser asked for by name under `--non-interactive`.
        case browserWhilePromptsForbidden
        /// A plain login without a terminal: no browser is opened unless asked for.
        case noTerminal
        /// A plain login on a terminal with no desktop and no SSH session: no browser to open.
        case noDesktop
    }

    /// The route for `asked` on `profile`, where `interactive` says a person is at a terminal, `promptsForbidden`
    /// that whoever runs it said no one is to be asked, and `host` where a browser is.
    public static func choose(
        _ asked: Asked, profile: ResolvedProfile, interactive: Bool, promptsForbidden: Bool, host: BrowserHost
    ) throws(Refusal) -> SignInRoute {
        if asked.mode == .device {
            do { try DeviceSignIn.check(profile) } catch { throw .device(error) }
            return profile.grant == .clientCredentials ? .machine : .device(automatic: false)
        }
        let plain = !asked.browserOptionGiven && !asked.userPoolOptionGiven
        let browserHere = host == .desktop || host == .wsl
        if plain, profile.hasDeviceSignIn, profile.grant == .user, interactive, !browserHere {
            return .device(automatic: true)
        }
        if profile.grant == .clientCredentials { return .machine }
        if asked.userPoolOptionGiven { return .userPool }
        guard profile.hasBrowserSignIn else {
            if asked.browserOptionGiven { throw .noBrowserSignIn }
            return .userPool
        }
        if asked.mode == .paste { return .browser(.paste) }
        if asked.mode == .noBrowser { return .browser(.printURL) }
        if asked.mode == .browser || asked.browserCommand != nil {
            // Asked for by name: a script may drive a browser of its own, but never under --non-interactive.
            guard !promptsForbidden else { throw .browserWhilePromptsForbidden }
            return .browser(.open(command: asked.browserCommand))
        }
        guard interactive else { throw .noTerminal }
        switch host {
        case .desktop, .wsl: return .browser(.open(command: nil))
        // The browser is at the far end: print the URL with the port forwarding that brings its redirect here.
        case .ssh: return .browser(.printURL)
        case .none: throw .noDesktop
        }
    }
}
