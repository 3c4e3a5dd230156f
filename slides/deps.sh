#!/bin/sh
# make deps, the deck's part: reveal.js exactly as slides/package-lock.json
# pins it, installed with `npm ci` into build/npm (never into the
# checkout).  kernel/deps.sh runs this after the Debian packages.
#
#   slides/deps.sh          install, unless the lock's install is there
#   slides/deps.sh --check  only say whether it is there; exit 1 if not
#
# Quick when already installed: a stamp holds the hash of package.json
# and the lock that build/npm was installed from.
set -eu
. "$(dirname "$0")/../kernel/lib.sh"

NPM_DIR=${NPM_DIR:-$BUILD/npm}
REVEAL=$NPM_DIR/node_modules/reveal.js
want=$(cat "$TOP/slides/package.json" "$TOP/slides/package-lock.json" | sha256sum | cut -d' ' -f1)

if [ -f "$NPM_DIR/stamp" ] && [ "$(cat "$NPM_DIR/stamp")" = "$want" ] &&
	[ -f "$REVEAL/dist/reveal.js" ]; then
	echo "deps: reveal.js $(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$REVEAL/package.json") is installed in $NPM_DIR"
	exit 0
fi
if [ "${1:-}" = --check ]; then
	echo "deps: missing: reveal.js in $NPM_DIR, as slides/package-lock.json pins it (make deps installs it)"
	exit 1
fi
command -v npm >/dev/null ||
	die "the npm command is missing: run 'make deps' as root (it installs Debian's nodejs and npm)"

echo "deps: installing reveal.js from slides/package-lock.json into $NPM_DIR (npm ci)"
rm -rf "$NPM_DIR.new"
mkdir -p "$NPM_DIR.new"
cp "$TOP/slides/package.json" "$TOP/slides/package-lock.json" "$NPM_DIR.new/"
(cd "$NPM_DIR.new" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) ||
	die "npm ci failed in $NPM_DIR.new (is the npm registry reachable?)"
[ -f "$NPM_DIR.new/node_modules/reveal.js/dist/reveal.js" ] ||
	die "npm ci did not install reveal.js into $NPM_DIR.new"
echo "$want" >"$NPM_DIR.new/stamp"
rm -rf "$NPM_DIR"
mv "$NPM_DIR.new" "$NPM_DIR"
echo "deps: reveal.js installed in $NPM_DIR"
