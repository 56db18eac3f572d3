#!/usr/bin/env bash
# Rebuild the vendored CodeMirror bundle from the exact versions in package-lock.json:
#   scripts/codemirror/build.sh
# writes static/vendor/codemirror-<@codemirror/view version>/{codemirror.bundle.js,LICENSE.txt,versions.json}.
# node_modules/ stays here (git-ignored); the app itself never loads anything from npm or a CDN.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
# esbuild's postinstall only checks its platform binary, which comes as an optional dependency.
npm ci --ignore-scripts --no-audit --no-fund
version="$(node -p 'require("./node_modules/@codemirror/view/package.json").version')"
out="$root/static/vendor/codemirror-$version"
mkdir -p "$out"
node build.mjs "$out"
echo "static/js/editor.js must import ../vendor/codemirror-$version/codemirror.bundle.js;"
echo "update static/vendor/README.md (and delete an older codemirror-*/ folder) if the version changed."
