#!/usr/bin/env bash
# Builds dist/authvault_<version>-<revision>_<arch>.deb from a release binary (`make deb` passes it), with Debian's
# own tools: the tree of Scripts/install-tree.sh under /usr, the binary stripped, a Debian changelog, a control file
# whose Depends are dpkg-shlibdeps' for the libraries the binary links plus those it opens with dlopen (which no
# tool can see), md5sums, and dpkg-deb with root as the owner of every file. dist/ holds only this .deb afterwards.
# Usage: Scripts/build-deb.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${1:?Usage: $0 BINARY}
Scripts/check-runpath.sh "$binary"
# The libraries the binary opens with dlopen on first use (Sources/COpenSSLLoader, CCurl, CSecret, CDBus, CQRencode):
# libcrypto.so.3, libcurl.so.4, libsecret-1.so.0 (which brings GLib), libdbus-1.so.3 (the Secret Service's plain
# read), libqrencode.so.4 (the device code's QR code). Scripts/check_deb.sh checks each soname is in one of them.
dlopened_packages="libssl3, libcurl4, libsecret-1-0, libdbus-1-3, libqrencode4"
# The Debian revision: the packaging's own changes to one upstream version. --version prints the upstream one.
revision=1
# The one version: the binary's (AuthVault.version), which prints it.
upstream=$("$binary" --version | sed -n 's/^authvault //p')
[ -n "$upstream" ] || { echo "cannot read the version from $binary --version" >&2; exit 1; }
version=$upstream-$revision
architecture=$(dpkg --print-architecture)
# The last commit's date, so the same sources make the same package; the time now outside a git checkout.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stripped=$work/authvault
strip --strip-unneeded --remove-section=.comment --remove-section=.note -o "$stripped" "$binary"
staging=$work/root
DESTDIR=$staging PREFIX=/usr Scripts/install-tree.sh install "$stripped"

cat > "$work/changelog.Debian" <<CHANGELOG
authvault ($version) unstable; urgency=medium

  * Upstream release $upstream, packaged from its sources (see changelog.gz).

 -- AuthVault maintainers <maintainers@authvault.example>  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG
gzip -9nc "$work/changelog.Debian" > "$staging/usr/share/doc/authvault/changelog.Debian.gz"
chmod 0644 "$staging/usr/share/doc/authvault/changelog.Debian.gz"

# dpkg-shlibdeps reads a source package's debian/control: a minimal one, in the work directory.
mkdir -p "$work/source/debian"
printf 'Source: authvault\n\nPackage: authvault\nArchitecture: any\n' > "$work/source/debian/control"
linked=$(cd "$work/source" && dpkg-shlibdeps -O "$staging/usr/bin/authvault" | sed -n 's/^shlibs:Depends=//p')

install -d -m 0755 "$staging/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCHITECTURE@/$architecture/" -e "s/@DEPENDS@/$linked, $dlopened_packages/" \
    -e "s/@INSTALLED_SIZE@/$(du -k -s --apparent-size --exclude=DEBIAN "$staging" | cut -f1)/" Packaging/control.in \
    > "$staging/DEBIAN/control"
(cd "$staging" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$staging/DEBIAN/md5sums"
chmod 0644 "$staging/DEBIAN/control" "$staging/DEBIAN/md5sums"

mkdir -p dist
rm -f dist/*.deb
dpkg-deb --root-owner-group -Zxz --build "$staging" "dist/authvault_${version}_$architecture.deb"
