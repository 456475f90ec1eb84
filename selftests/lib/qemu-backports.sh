#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-backports.sh: a newer QEMU for the guests without touching the
# machine's own.  Downloads qemu-system-x86 and the two packages it needs
# from Debian's bookworm-backports (signature of InRelease checked with
# the Debian archive keyring, then the checksums of Packages.xz and of
# every .deb), unpacks them under $RPCRDMA_CACHE/qemu-backports/VERSION
# and prints the two variables selftests/lib/vm.sh reads:
#
#   eval "$(selftests/lib/qemu-backports.sh)"   # sets and exports them
#   selftests/run.sh 60-client-vs-our-server
#
# The archive is the one this machine's apt sources name for bookworm
# (the same mirror, local mirror or caching proxy apt itself uses), read
# from apt's source lists: a deb822 entry (URIs:, Suites:) or a one-line
# "deb URI SUITE ..." entry whose suite is bookworm-backports, else
# bookworm, else bookworm-updates (the security archive serves only
# bookworm-security and is never taken).  apt's own proxy setting
# (Acquire::http::Proxy, or ::https:: for https) is used too, unless
# http_proxy (https_proxy) is set.
# DEBIAN_MIRROR=URI overrides the choice (the URI that holds dists/ and
# pool/); "qemu-backports.sh --mirror" prints the URI it would use.
#
# It also points $QEMU_BACKPORT (common.sh) at that version,
# which vm.sh then runs by default: guests crashed about once per six
# guest-minutes on QEMU 7.2 (Debian 12's) and not once in 35 on the
# backport (Documentation/reliability.rst).  make deps runs this once.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# apt_sources: print "SUITE URI" for each entry of apt's
# source lists (sources.list, then sources.list.d/ in name order, as apt
# reads them), deb entries only, disabled deb822 entries left out.
apt_sources() {
	local SL=/etc/apt/sources.list SP=/etc/apt/sources.list.d/ f

	if command -v apt-config >/dev/null; then
		eval "$(apt-config shell SL Dir::Etc::sourcelist/f \
			SP Dir::Etc::sourceparts/d 2>/dev/null)"
	fi
	for f in "$SL" "${SP%/}"/*; do
		if [ ! -f "$f" ] || [ ! -r "$f" ]; then
			continue
		fi
		case "$f" in
		*.list)
			# deb [option=value ...] URI SUITE COMPONENT...
			sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
				awk '$1 == "deb" && NF >= 3 { print $3, $2 }' ;;
		*.sources)
			# Paragraphs of "Field: value", continued on indented
			# lines; field names are not case-sensitive.
			awk '
			function flush(  i, j, nu, ns, u, s) {
				gsub(/[ \t]+/, " ", types)
				if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no") {
					nu = split(uris, u, " "); ns = split(suites, s, " ")
					for (i = 1; i <= nu; i++)
						for (j = 1; j <= ns; j++)
							print s[j], u[i]
				}
				types = uris = suites = enabled = field = ""
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { v = $0; sub(/^[ \t]+/, "", v)
				   if (field == "uris") uris = uris " " v
				   else if (field == "suites") suites = suites " " v
				   else if (field == "types") types = types " " v
				   next }
			{
				field = tolower($0); sub(/:.*/, "", field)
				v = $0; sub(/^[^:]*:[ \t]*/, "", v)
				if (field == "types") types = v
				else if (field == "uris") uris = v
				else if (field == "suites") suites = v
				else if (field == "enabled") enabled = v
			}
			END { flush() }' "$f" ;;
		esac
	done
}

# The URI to fetch bookworm-backports from: the entry for
# bookworm-backports, else bookworm, else bookworm-updates; only what curl
# can fetch (http, https, ftp, file), without a trailing slash.
apt_archive() {
	apt_sources | awk '
		$2 !~ /^(https?|ftp|file):/ { next }
		{ u = $2; sub(/\/+$/, "", u); sub(/^file:\/*/, "file:///", u) }
		$1 == "bookworm-backports" && !b { b = u }
		$1 == "bookworm" && !m { m = u }
		$1 == "bookworm-updates" && !up { up = u }
		END { u = b ? b : m ? m : up; if (u) print u; else exit 1 }'
}

if [ -n "${DEBIAN_MIRROR:-}" ]; then
	mirror=${DEBIAN_MIRROR%/}
else
	mirror=$(apt_archive) ||
		die "qemu-backports: no apt source names bookworm's archive; set DEBIAN_MIRROR to the URI that holds dists/ and pool/"
fi
if [ "${1:-}" = --mirror ]; then
	echo "$mirror"
	exit 0
fi
# apt's proxy for the archive's scheme (Acquire::http::Proxy or
# Acquire::https::Proxy), unless the environment names one for curl.
scheme=${mirror%%:*}
case "$scheme" in
http | https)
	if [ -z "$(printenv "${scheme}_proxy")" ] && command -v apt-config >/dev/null; then
		proxy=
		eval "$(apt-config shell proxy "Acquire::$scheme::Proxy" 2>/dev/null)"
		case "$proxy" in
		"" | DIRECT | direct) ;;
		*) export "${scheme}_proxy=$proxy" ;;
		esac
	fi ;;
esac
suite=bookworm-backports
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
pkgs="qemu-system-x86 qemu-system-common qemu-system-data"

for tool in curl gpgv xz dpkg-deb sha256sum; do
	command -v "$tool" >/dev/null || die "qemu-backports: $tool is missing"
done
[ -r "$keyring" ] || die "qemu-backports: no $keyring (debian-archive-keyring)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fetch FILE URL
fetch() {
	curl -fsS --connect-timeout 20 --retry 2 -o "$1" "$2"
}

fetch "$tmp/InRelease" "$mirror/dists/$suite/InRelease" ||
	die "qemu-backports: cannot fetch $suite/InRelease from $mirror"
gpgv --keyring "$keyring" --output "$tmp/Release" "$tmp/InRelease" \
	2>"$tmp/gpgv.log" ||
	{ cat "$tmp/gpgv.log" >&2; die "qemu-backports: bad signature on InRelease"; }

index=main/binary-amd64/Packages.xz
sum=$(awk -v f="$index" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 }
	s && $3 == f { print $1 }' "$tmp/Release")
[ -n "$sum" ] || die "qemu-backports: $index not in Release"
fetch "$tmp/Packages.xz" "$mirror/dists/$suite/$index" ||
	die "qemu-backports: cannot fetch $index"
echo "$sum  $tmp/Packages.xz" | sha256sum -c --quiet - ||
	die "qemu-backports: $index checksum mismatch"

# "PACKAGE VERSION FILENAME SHA256" for each package wanted.
xz -dc "$tmp/Packages.xz" | awk -v want=" $pkgs " '
	/^Package:/ { p = $2; v = f = s = "" }
	/^Version:/ { v = $2 }
	/^Filename:/ { f = $2 }
	/^SHA256:/ { s = $2 }
	/^$/ { if (index(want, " " p " ") && f != "") print p, v, f, s; p = "" }
	' >"$tmp/wanted"
[ "$(wc -l <"$tmp/wanted")" = 3 ] ||
	die "qemu-backports: $suite lacks one of: $pkgs"

version=$(awk '$1 == "qemu-system-x86" { print $2 }' "$tmp/wanted")
dest=$RPCRDMA_CACHE/qemu-backports/${version//[:~+]/_}
if [ ! -x "$dest/usr/bin/qemu-system-x86_64" ]; then
	mkdir -p "$dest.new"
	while read -r pkg _ file sha; do
		fetch "$tmp/$pkg.deb" "$mirror/$file" ||
			die "qemu-backports: cannot fetch $file"
		echo "$sha  $tmp/$pkg.deb" | sha256sum -c --quiet - ||
			die "qemu-backports: $file checksum mismatch"
		dpkg-deb -x "$tmp/$pkg.deb" "$dest.new"
	done <"$tmp/wanted"
	rm -rf "$dest"
	mv "$dest.new" "$dest"
fi
# The emulator vm.sh uses when RPCRDMA_QEMU is not set.
ln -sfn "$(basename "$dest")" "$QEMU_BACKPORT"
"$dest/usr/bin/qemu-system-x86_64" --version | head -1 >&2
echo "export RPCRDMA_QEMU=$dest/usr/bin/qemu-system-x86_64"
echo "export RPCRDMA_QEMU_DATADIR=$dest/usr/share/qemu"
