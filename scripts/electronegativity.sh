#!/usr/bin/env bash
# Static security review of the Electron shell with Doyensec's Electronegativity, offline:
# the Electron version is given with -e, the release-notes check (network) is skipped, and
# scripts/offlineGot.cjs answers its translation download with an immediate failure (got 11
# otherwise crashes Node 24 on retry). Fails when a HIGH-severity finding remains.
set -euo pipefail
cd "$(dirname "$0")/.."

electron_version=$(node -p "require('electron/package.json').version")
out_dir=${ELECTRONEGATIVITY_OUT:-bench/out/electronegativity}
mkdir -p "$out_dir"
export NODE_OPTIONS="--require ./scripts/offlineGot.cjs ${NODE_OPTIONS:-}"

# Global checks (navigation limits, permission handler, CSP) need the whole shell in one scan:
# the sources that configure Electron (main process, preload) and the page they load.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/main" "$stage/renderer"
cp -r main/app "$stage/main/app"
cp -r preload "$stage/preload"
cp renderer/index.html "$stage/renderer/index.html"
find "$stage" -name '*.test.ts' -delete

out="$out_dir/report.csv"
rm -f "$out"
npx --no-install electronegativity -i "$stage" -e "$electron_version" -x AvailableSecurityFixesGlobalCheck -r -o "$out" >/dev/null
if [ ! -f "$out" ]; then
  echo "electronegativity: no report written" >&2
  exit 1
fi
findings=$(($(wc -l < "$out") - 1))
high=$(grep -c '"HIGH"' "$out" || true)
echo "electronegativity: $findings findings, $high high (report: $out)"
cut -d, -f1-5 "$out" | tail -n +2 | sed 's/^/  /'
if [ "$high" -gt 0 ]; then
  echo "electronegativity: high-severity findings:" >&2
  grep '"HIGH"' "$out" >&2
  exit 1
fi
