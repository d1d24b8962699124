#!/usr/bin/env bash
# Installs what building and testing AuthVault needs, and only what is missing.
# As root it runs apt-get itself; otherwise it prints the exact apt-get command and fails. The Python peers go into
# the project's virtual environment (.venv) as any user.
#   Scripts/install-deps.sh build     the C libraries the package links
#   Scripts/install-deps.sh deb       plus Debian's packaging tools (make deb, Scripts/check_deb.sh)
#   Scripts/install-deps.sh test      plus the test peers (openssl CLI, python3 packages, ...)
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${1:-test}
# libqrencode4: opened at run time for login --device's QR code (its declarations are in Sources/CQRencode).
# libdbus-1-3: opened at run time for the Secret Service's plain read (its declarations are in Sources/CDBus, checked
# against libdbus-1-dev's headers by SecretServiceDeclarationTests).
apt_build=(pkg-config libssl-dev libcurl4-openssl-dev libsecret-1-dev libkeyutils-dev libqrencode4 libdbus-1-3 libdbus-1-dev)
# Packaging: dpkg-deb and dpkg-shlibdeps (dpkg-dev), strip (binutils), lintian, and what Scripts/check_deb.sh reads
# the installed package with: man-db (man), systemd (systemd-analyze verify).
apt_deb=(dpkg-dev binutils lintian man-db systemd)
# Test peers: the openssl CLI (TLS and RSA fixtures), util-linux's flock, the Secret Service (gnome-keyring on a
# private D-Bus session, secret-tool, python3-dbus to lock a collection, python3-cryptography to decrypt a vault
# record independently, and by the bearer-token test servers to verify JWTs), keyutils (the user keyring), git
# (real clones through the credential helper), chromium (the browser sign-in, driven by playwright), tinyproxy (an
# HTTP proxy in the way, as on a company network), faketime (the binary run with its clock minutes off), zsh and
# fish (the completion scripts, run in the shells themselves), groff-base (the man pages rendered, against --help),
# bsdextrautils (column: the fault matrix's table),
# strace (counting the threads a token through the agent starts: none, and the files a warm token opens), time
# (`make bench`'s peak memory of a process: GNU time's %M), systemd (systemd-analyze verify, security and
# syscall-filter on the agent's units), python3-seccomp (the agent run under its unit's seccomp filters), and
# zbar-tools with python3-pil (the device code's QR code, drawn in half blocks, rendered to a PNG and decoded by
# zbarimg: Tests/TestSupport/Scripts/qr_decode.py, run with Debian's python3), and openssh-server with
# openssh-client (a real sshd, started by the test on a port of its own, forwarding the agent's restricted socket to
# a remote shell with `ssh -R`; the service the package enables is never started by the tests).
apt_test=(openssl ca-certificates curl python3 python3-venv dbus-daemon dbus-bin gnome-keyring libsecret-tools python3-dbus python3-cryptography keyutils
          git chromium tinyproxy faketime zsh fish bsdextrautils strace groff-base time systemd python3-seccomp
          zbar-tools python3-pil openssh-server openssh-client)
# The Python peers go into the project's own virtual environment (.venv, git-ignored), made from Debian's python3
# with its site packages visible (python3-dbus, python3-cryptography): a fresh Debian 12 has no pip and refuses
# system-wide installs, and the system Python is never touched. Tests and scripts run .venv/bin/python3.
# moto's server is the Cognito emulator; pycognito is the independent SRP implementation the tests compare against;
# django-oauth-toolkit is the Hosted UI (OAuth 2.0 / OIDC) stand-in and, in its default configuration, a generic
# OpenID provider; oidc-provider-mock (Authlib and Flask) is a second, independent one; playwright drives the system
# chromium (pip installs no browser: only `playwright install` would download one, and the tests never run it).
# Exact versions: a peer's behaviour is part of what the tests prove (moto 5.2.5 answers MFA set-up and forgotten
# passwords differently from 5.2.1), so a new release is taken on purpose, never by chance.
# awscli (v1) and boto3 are the real credential_process consumers of `authvault aws-credentials`: the versions that
# resolve together with moto's botocore. jsonschema checks each command's --json output against its schema in docs/
# (draft 2020-12), an implementation of the standard that is not ours.
pip_test=("moto[cognitoidp]==5.2.1" flask==3.1.3 flask-cors==6.0.2 pycognito==2024.5.1 django==5.2.19
          django-oauth-toolkit==3.4.1 playwright==1.65.2 awscli==1.46.3 boto3==1.44.8 oidc-provider-mock==0.3.4
          jsonschema==4.26.0)
# Debian's kubectl 1.20 (kubernetes-client) for the exec-plugin tests, unpacked inside the package (git-ignored): it
# would conflict with a kubectl that another package (google-cloud-sdk's) installs as /usr/bin/kubectl.
venv=.venv
debian_tools=.build/debian-tools
debian_kubectl=$debian_tools/usr/bin/kubectl

apt_wanted=("${apt_build[@]}")
[ "$profile" = deb ] && apt_wanted+=("${apt_deb[@]}")
[ "$profile" = test ] && apt_wanted+=("${apt_test[@]}")

missing_apt=()
for package in "${apt_wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing_apt+=("$package")
done

missing_pip=()
if [ "$profile" = test ]; then
    installed=$("$venv/bin/python3" -m pip list --format=freeze --disable-pip-version-check 2>/dev/null | tr 'A-Z_' 'a-z-' || true)
    for requirement in "${pip_test[@]}"; do
        name=${requirement%%[=\[]*}
        grep -qx "$name==${requirement##*==}" <<< "$installed" || missing_pip+=("$requirement")
    done
fi

missing_kubectl=false
[ "$profile" = test ] && [ ! -x "$debian_kubectl" ] && missing_kubectl=true

if [ ${#missing_apt[@]} -eq 0 ] && [ ${#missing_pip[@]} -eq 0 ] && [ "$missing_kubectl" = false ]; then
    exit 0
fi

# Debian's packages and the kubectl unpacking need root; the virtual environment is the project's own.
if [ "$(id -u)" -ne 0 ] && { [ ${#missing_apt[@]} -gt 0 ] || [ "$missing_kubectl" = true ]; }; then
    echo "AuthVault needs Debian packages that are not installed. Run as root:" >&2
    [ ${#missing_apt[@]} -gt 0 ] && echo "  apt-get update && apt-get install -y ${missing_apt[*]}" >&2
    [ "$missing_kubectl" = true ] && echo "  (cd \"\$(mktemp -d)\" && apt-get download kubernetes-client && dpkg-deb -x kubernetes-client_*.deb \"$PWD/$debian_tools\")" >&2
    echo "then run this script again." >&2
    exit 1
fi

if [ ${#missing_apt[@]} -gt 0 ]; then
    echo "Installing Debian packages: ${missing_apt[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing_apt[@]}" >/dev/null
fi
if [ ${#missing_pip[@]} -gt 0 ]; then
    echo "Installing Python packages into $venv: ${missing_pip[*]}"
    [ -x "$venv/bin/python3" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
    "$venv/bin/python3" -m pip install -q --disable-pip-version-check "${missing_pip[@]}"
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
