#!/usr/bin/env bash
# The Debian package as a user gets it, on this machine (as root): lintian finds no error; Depends names the package
# of every library the binary loads, those it opens with dlopen included; `apt-get install ./dist/...deb` installs
# it; then --version, the helper links, the man pages against --help, the completions and the systemd user units
# are checked where the system looks for them; `apt-get remove --purge` removes it, leaving nothing it installed.
# Usage: Scripts/check_deb.sh [DEB]      (default: the one dist/*.deb `make deb` built)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check_deb: FAILED: $*" >&2; exit 1; }
step() { echo "== $*"; }
deb=${1:-$(ls dist/*.deb)}
[ -f "$deb" ] || fail "no package at $deb: run 'make deb'"
[ "$(id -u)" -eq 0 ] || fail "run as root: it installs and removes the package"
dpkg-query -W -f='${Status}' authvault 2>/dev/null | grep -q "install ok installed" &&
    fail "authvault is installed already: remove it first (apt-get remove --purge authvault)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(dpkg-deb -f "$deb" Version)
upstream=${version%-*}
helpers=(git-credential-authvault:git-credential docker-credential-authvault:docker-credential
         vault-token-helper-authvault:vault-token-helper)

step "lintian: no error (the warnings that remain are explained in docs/packaging.md)"
lintian --fail-on error --tag-display-limit 0 "$deb"

step "Depends names the package of every library the binary links or opens"
dpkg-deb -x "$deb" "$work/unpacked"
binary=$work/unpacked/usr/bin/authvault
depends=$(dpkg-deb -f "$deb" Depends)
# The package names Depends lists, one a line, without versions.
depends_names=$(sed 's/([^)]*)//g; s/[,|]/\n/g' <<< "$depends" | tr -d ' ')
# The linked libraries (NEEDED) and the sonames the binary names for dlopen (string constants such as libcurl.so.4).
sonames=$( { objdump -p "$binary" | awk '$1 == "NEEDED" { print $2 }'; strings "$binary" | grep -E '^lib[A-Za-z0-9_+.-]+\.so\.[0-9]+$'; } | sort -u)
for soname in $sonames; do
    package=$(dpkg -S "*/$soname" 2>/dev/null | head -n 1 | cut -d: -f1)
    [ -n "$package" ] || fail "no installed package holds $soname"
    grep -qxF "$package" <<< "$depends_names" || fail "$soname is in $package, which Depends does not name: $depends"
    echo "   $soname: $package"
done
objdump -p "$binary" | grep -Eq 'RPATH|RUNPATH' && fail "the binary carries an RPATH/RUNPATH"

# What the package will install, and which of those paths exist already (shared directories), for the removal check.
dpkg-deb -c "$deb" | awk '{ sub(/^\./, "", $6); print $6 }' | sed 's|/$||' | grep -v '^$' > "$work/paths"
while read -r path; do [ -e "$path" ] || [ -L "$path" ] || echo "$path"; done < "$work/paths" > "$work/new-paths"

step "apt-get install $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$deb" > "$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get install"; }

step "--version prints the upstream version"
[ "$(authvault --version)" = "authvault $upstream" ] || fail "authvault --version says '$(authvault --version)', not 'authvault $upstream'"

step "the helper names are links to the binary, and run their commands"
for entry in "${helpers[@]}"; do
    name=${entry%%:*} command=${entry#*:}
    [ "$(readlink "/usr/bin/$name")" = authvault ] || fail "/usr/bin/$name is not a link to authvault"
    "$name" --help | grep -q "USAGE: authvault $command" || fail "$name --help is not the help of '$command'"
done

step "man pages: authvault(1) names the global options, each command's page its options"
page_text() { MANWIDTH=200 man "$1" 2>"$work/man.err"; [ ! -s "$work/man.err" ] || fail "man $1: $(cat "$work/man.err")"; }
options_of() { awk '/^(GLOBAL )?OPTIONS:$/ { on = 1; next } /^$/ { on = 0 } on' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
check_command() {
    local page=authvault${*:+-$(IFS=-; echo "$*")} help text option
    help=$(authvault "$@" --help)
    text=$(page_text "$page")
    for option in $(options_of <<< "$help"); do grep -q -- "$option" <<< "$text" || fail "$page(1) does not name $option"; done
    for child in $(awk '/^COMMANDS:$/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' <<< "$help"); do
        check_command "$@" "$child"
    done
}
check_command
for entry in "${helpers[@]}"; do
    [ -f "/usr/share/man/man1/${entry%%:*}.1.gz" ] || fail "no page for ${entry%%:*}"
    page_text "${entry%%:*}" | grep -q "authvault-${entry#*:}" || fail "man ${entry%%:*} is not the page of ${entry#*:}"
done

step "completions where bash, zsh and fish look, each one the shell accepts"
bash -n /usr/share/bash-completion/completions/authvault
bash -c 'source /usr/share/bash-completion/completions/authvault && complete -p authvault' > /dev/null
[ -s /usr/share/zsh/vendor-completions/_authvault ] || fail "no zsh completion"
if command -v zsh > /dev/null; then zsh -n /usr/share/zsh/vendor-completions/_authvault; fi
[ -s /usr/share/fish/vendor_completions.d/authvault.fish ] || fail "no fish completion"
if command -v fish > /dev/null; then fish --no-execute /usr/share/fish/vendor_completions.d/authvault.fish; fi

step "systemd user units: valid, starting /usr/bin/authvault, not enabled"
grep -qx 'ExecStart=/usr/bin/authvault agent' /usr/lib/systemd/user/authvault-agent.service || fail "ExecStart is not /usr/bin/authvault agent"
mkdir -m 0700 "$work/runtime"
XDG_RUNTIME_DIR=$work/runtime HOME=$work systemd-analyze verify --user /usr/lib/systemd/user/authvault-agent.socket \
    /usr/lib/systemd/user/authvault-agent.service 2> "$work/verify.err" || { cat "$work/verify.err"; fail "systemd-analyze verify"; }
[ ! -s "$work/verify.err" ] || { cat "$work/verify.err"; fail "systemd-analyze verify has warnings"; }
# The service's sandboxing as installed: exposure 6.3 at most (--threshold is in tenths).
systemd-analyze security --offline=true --threshold=63 /usr/lib/systemd/user/authvault-agent.service > "$work/security.out" ||
    { tail -n 1 "$work/security.out"; fail "the agent's unit is less sandboxed than 6.3 (systemd-analyze security)"; }
[ -z "$(find /etc/systemd/user -name 'authvault-agent*' 2>/dev/null)" ] || fail "the units are enabled by default"

step "copyright (machine-readable) and changelogs"
head -n 1 /usr/share/doc/authvault/copyright | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    fail "copyright is not in the machine-readable format"
zcat /usr/share/doc/authvault/changelog.Debian.gz | head -n 1 | grep -q "^authvault ($version)" || fail "changelog.Debian.gz is not $version's"
zcat /usr/share/doc/authvault/changelog.gz | grep -q "^## \[$upstream\]" || fail "changelog.gz has no section for $upstream"

step "apt-get remove --purge: nothing left"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -q authvault > "$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get remove"; }
dpkg-query -W -f='${Status}' authvault 2>/dev/null | grep -q "install ok installed" && fail "still installed"
while read -r path; do
    if [ -e "$path" ] || [ -L "$path" ]; then fail "$path is left after removal"; fi
done < "$work/new-paths"
echo "check_deb: $deb passed"
