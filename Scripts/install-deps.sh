#!/usr/bin/env bash
# Installs what building and testing AuthVault needs, and only what is missing.
# As root it runs apt-get and pip itself; otherwise it prints the exact commands to run and fails.
#   Scripts/install-deps.sh build     the C libraries the package links
#   Scripts/install-deps.sh test      plus the test peers (openssl CLI, python3 packages, ...)
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${1:-test}
apt_build=(pkg-config libssl-dev libcurl4-openssl-dev libsecret-1-dev libkeyutils-dev)
# Test peers: the openssl CLI (TLS and RSA fixtures), util-linux's flock, the Secret Service (gnome-keyring on a
# private D-Bus session, secret-tool, python3-dbus to lock a collection, python3-cryptography to decrypt a vault
# record independently, and by the bearer-token test servers to verify JWTs), keyutils (the session keyring), git
# (real clones through the credential helper) and chromium (the browser sign-in, driven by playwright).
apt_test=(openssl ca-certificates python3 dbus-daemon dbus-bin gnome-keyring libsecret-tools python3-dbus python3-cryptography keyutils
          git chromium)
# moto's server is the Cognito emulator; pycognito is the independent SRP implementation the tests compare against;
# django-oauth-toolkit is the Hosted UI (OAuth 2.0 / OIDC) stand-in; playwright drives the system chromium (pip
# installs no browser: only `playwright install` would download one, and the tests never run it).
pip_test=("moto[cognitoidp]>=5,<6" flask flask-cors pycognito "django>=5.1,<6" "django-oauth-toolkit>=3,<4" playwright)
# Debian's kubectl 1.20 (kubernetes-client) for the exec-plugin tests, unpacked inside the package (git-ignored): it
# would conflict with a kubectl that another package (google-cloud-sdk's) installs as /usr/bin/kubectl.
debian_tools=.build/debian-tools
debian_kubectl=$debian_tools/usr/bin/kubectl

apt_wanted=("${apt_build[@]}")
[ "$profile" = test ] && apt_wanted+=("${apt_test[@]}")

missing_apt=()
for package in "${apt_wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing_apt+=("$package")
done

missing_pip=()
if [ "$profile" = test ] && [ ${#pip_test[@]} -gt 0 ]; then
    for requirement in "${pip_test[@]}"; do
        name=${requirement%%[<>=\[]*}
        python3 -m pip show -q "$name" >/dev/null 2>&1 || missing_pip+=("$requirement")
    done
fi

missing_kubectl=false
[ "$profile" = test ] && [ ! -x "$debian_kubectl" ] && missing_kubectl=true

if [ ${#missing_apt[@]} -eq 0 ] && [ ${#missing_pip[@]} -eq 0 ] && [ "$missing_kubectl" = false ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "AuthVault needs packages that are not installed. Run:" >&2
    [ ${#missing_apt[@]} -gt 0 ] && echo "  sudo apt-get update && sudo apt-get install -y ${missing_apt[*]}" >&2
    [ ${#missing_pip[@]} -gt 0 ] && echo "  python3 -m pip install ${missing_pip[*]}" >&2
    [ "$missing_kubectl" = true ] && echo "  (cd \"\$(mktemp -d)\" && apt-get download kubernetes-client && dpkg-deb -x kubernetes-client_*.deb \"$PWD/$debian_tools\")" >&2
    exit 1
fi

if [ ${#missing_apt[@]} -gt 0 ]; then
    echo "Installing Debian packages: ${missing_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing_apt[@]}" >/dev/null
fi
if [ ${#missing_pip[@]} -gt 0 ]; then
    echo "Installing Python packages: ${missing_pip[*]}"
    python3 -m pip install -q --disable-pip-version-check "${missing_pip[@]}"
fi
if [ "$missing_kubectl" = true ]; then
    echo "Unpacking Debian's kubernetes-client into $debian_tools"
    apt-cache show kubernetes-client >/dev/null 2>&1 || apt-get update -qq
    mkdir -p "$debian_tools"
    download=$(mktemp -d)
    chown _apt "$download" 2>/dev/null || true # apt-get download writes as its own _apt user
    (cd "$download" && apt-get download -qq kubernetes-client && dpkg-deb -x kubernetes-client_*.deb "$OLDPWD/$debian_tools")
    rm -rf "$download"
fi
