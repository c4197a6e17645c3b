#!/usr/bin/env bash
# Installs code-server (the real VS Code workbench + a Node extension host) from the npm registry,
# without any download from GitHub or the VS Code CDN, into a git-ignored prefix.
#
#   scripts/install-code-server.sh [PREFIX]      default PREFIX: <repo>/.cache/code-server
#   CS_VERSION=4.100.3                           code-server 4.100.3 = VS Code 1.100.3 on Node 20
#
# Idempotent: exits at once when <PREFIX>/node_modules/code-server is already complete.
# Missing Debian packages (compilers and headers for the native modules, ripgrep, chromium) are
# installed with apt-get (needs root, as on CI).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${1:-$ROOT/.cache/code-server}"
CS_VERSION="${CS_VERSION:-4.100.3}"
CS="$PREFIX/node_modules/code-server"
MARKER="$PREFIX/.installed-$CS_VERSION"
log() { echo "[install-code-server $(date +%T)] $*"; }

# 1) Debian packages (the install needs the toolchain; the tests need chromium + rg, the packaging tests pre-commit, the
#    language server test neovim, and dash, zsh and fish for the resume-command tests that run each real shell).
need=()
for p in build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium pre-commit neovim dash zsh fish; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if ((${#need[@]})); then
  log "apt-get install ${need[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -f "$MARKER" ] && [ -f "$CS/out/node/entry.js" ]; then
  log "code-server $CS_VERSION already installed in $PREFIX"
  exit 0
fi

T0=$(date +%s)
# node-gyp takes the headers of the running node (Debian's nodejs package or an official tarball ships them)
# instead of downloading them from nodejs.org.
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
if [ -z "${npm_config_nodedir:-}" ]; then
  if [ -f "$NODE_PREFIX/include/node/node.h" ]; then export npm_config_nodedir="$NODE_PREFIX"
  elif [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
fi
export npm_config_yes=true                                # node-pty's postinstall runs `npx node-gyp`
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error
export npm_config_lockfile_version=3

rm -rf "$PREFIX"
mkdir -p "$PREFIX"
cd "$PREFIX"
echo '{"name":"skillflow-code-server-host","private":true}' > package.json

# 2) code-server itself, without its postinstall (it downloads ripgrep from GitHub and refuses root).
log "npm install code-server@$CS_VERSION"
npm install --no-save --ignore-scripts "code-server@${CS_VERSION}"
npm rebuild argon2 || log "argon2 rebuild failed (only needed for password auth; we use --auth none)"

# 3) VS Code server dependencies: no scripts first, then a local ripgrep, then native rebuilds.
cd "$CS/lib/vscode"
log "npm install (VS Code server dependencies)"
npm install --omit=dev --ignore-scripts
if [ -d node_modules/@vscode/ripgrep ]; then
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
fi
log "npm rebuild (node-pty, spdlog, kerberos, ... from source)"
npm rebuild

# 4) The rest of code-server's postinstall.sh.
rm -rf node_modules.asar && ln -s node_modules node_modules.asar
( cd bin/remote-cli && ln -sf code-linux.sh code-server )
( cd bin/helpers && ln -sf browser-linux.sh browser.sh )
( cd extensions && npm install --omit=dev )

touch "$MARKER"
log "code-server $CS_VERSION installed in $PREFIX in $(( $(date +%s) - T0 )) s"
