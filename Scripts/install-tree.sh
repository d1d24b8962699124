#!/usr/bin/env bash
# The installed tree, one for both `make install` and the Debian package (Scripts/build-deb.sh), under
# $DESTDIR$PREFIX (PREFIX: /usr/local by default, /usr in the package):
#   bin/authvault and the helper names tools run it by, as links to it;
#   share/man/man1: authvault(1), authvault-<command>(1) and the helper names' pages, written by the binary from
#     the option specs its --help prints (`authvault __man-pages`), gzipped as Debian wants (-9n: no name, no date);
#   the bash, zsh and fish completions, written by the binary (`authvault completion SHELL`);
#   lib/systemd/user: the agent's units from Examples/systemd, ExecStart naming this tree's binary;
#   share/doc/authvault: copyright (Debian's machine-readable format) and the upstream changelog.
# Usage: Scripts/install-tree.sh install BINARY
#        Scripts/install-tree.sh uninstall
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}$prefix
# zsh finds a distribution's completions in vendor-completions and a local administrator's in site-functions.
if [ "$prefix" = /usr ]; then zsh_directory=share/zsh/vendor-completions; else zsh_directory=share/zsh/site-functions; fi
bash_completion=share/bash-completion/completions/authvault
zsh_completion=$zsh_directory/_authvault
fish_completion=share/fish/vendor_completions.d/authvault.fish
units=(authvault-agent.socket authvault-agent.service)
man_directory=share/man/man1
doc_directory=share/doc/authvault

# The pages the binary at $root/bin/authvault writes, into a new directory whose path it prints.
written_pages() {
    local directory
    directory=$(mktemp -d)
    "$root/bin/authvault" __man-pages "$directory"
    echo "$directory"
}

# A helper name's page is a `.so` link to its command's page; its program is a link to the binary.
is_helper_page() { head -n 1 "$1" | grep -q '^\.so '; }

install_tree() {
    local binary=$1
    install -d -m 0755 "$root/bin" "$root/$man_directory" "$root/$(dirname "$bash_completion")" "$root/$zsh_directory" \
        "$root/$(dirname "$fish_completion")" "$root/lib/systemd/user" "$root/$doc_directory"
    install -m 0755 "$binary" "$root/bin/authvault"

    local pages
    pages=$(written_pages)
    for page in "$pages"/*.1; do
        install -m 0644 "$page" "$root/$man_directory/"
        gzip -9nf "$root/$man_directory/$(basename "$page")"
        if is_helper_page "$page"; then ln -sfn authvault "$root/bin/$(basename "$page" .1)"; fi
    done
    rm -rf "$pages"

    "$root/bin/authvault" completion bash > "$root/$bash_completion"
    "$root/bin/authvault" completion zsh > "$root/$zsh_completion"
    "$root/bin/authvault" completion fish > "$root/$fish_completion"
    chmod 0644 "$root/$bash_completion" "$root/$zsh_completion" "$root/$fish_completion"

    for unit in "${units[@]}"; do
        sed "s|^ExecStart=[^ ]*/authvault |ExecStart=$prefix/bin/authvault |" "Examples/systemd/$unit" > "$root/lib/systemd/user/$unit"
        chmod 0644 "$root/lib/systemd/user/$unit"
    done

    install -m 0644 Packaging/copyright "$root/$doc_directory/copyright"
    gzip -9nc CHANGELOG.md > "$root/$doc_directory/changelog.gz"
    chmod 0644 "$root/$doc_directory/changelog.gz"
}

# Removes what install_tree installed: the page names (and so the helper names) are the installed binary's own.
uninstall_tree() {
    local pages page name
    if [ -x "$root/bin/authvault" ]; then
        pages=$(written_pages)
        for page in "$pages"/*.1; do
            name=$(basename "$page" .1)
            rm -f "$root/$man_directory/$name.1.gz"
            if is_helper_page "$page"; then rm -f "$root/bin/$name"; fi
        done
        rm -rf "$pages"
    fi
    rm -f "$root/bin/authvault" "$root/$bash_completion" "$root/$zsh_completion" "$root/$fish_completion"
    for unit in "${units[@]}"; do rm -f "$root/lib/systemd/user/$unit"; done
    rm -rf "${root:?}/$doc_directory"
}

case ${1:-} in
    install) install_tree "${2:?Usage: $0 install BINARY}" ;;
    uninstall) uninstall_tree ;;
    *) echo "Usage: $0 install BINARY | uninstall" >&2; exit 2 ;;
esac
