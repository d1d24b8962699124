/// The Python that runs the test peers: the project's virtual environment, which Scripts/install-deps.sh makes from
/// Debian's python3 (its python3-dbus and python3-cryptography visible) and fills with moto, django-oauth-toolkit,
/// playwright and pycognito. Never the system Python, where a fresh Debian refuses pip installs.
public enum PeerPython {
    public static var path: String { PackageFiles.path(".venv/bin/python3") }
}
