#!/bin/sh
# Installs code-server (VS Code 1.100 served to a browser) and playwright-core here, for
# tests/test_editors_vscode_e2e.py. code-server's own postinstall downloads ripgrep from
# GitHub, which this machine cannot reach: its steps are done here with Debian's ripgrep.
# Needs Debian's packages: apt-get install chromium ripgrep libkrb5-dev (and gcc, make).
set -eu
cd "$(dirname "$0")"
npm ci --ignore-scripts
vscode=node_modules/code-server/lib/vscode
(cd "$vscode" && npm install --omit=dev --ignore-scripts)
(cd "$vscode/extensions" && npm install --omit=dev --ignore-scripts)
# native modules, built against the installed Node.js (npx node-gyp needs the yes)
npm_config_yes=true npm rebuild argon2
(cd "$vscode" && npm_config_yes=true npm rebuild kerberos @parcel/watcher @vscode/spdlog \
  @vscode/deviceid native-watchdog node-pty)
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
# the links code-server's postinstall.sh makes
ln -sfn node_modules "$vscode/node_modules.asar"
ln -sf code-linux.sh "$vscode/bin/remote-cli/code-server"
ln -sf browser-linux.sh "$vscode/bin/helpers/browser.sh"
XDG_CONFIG_HOME="$(mktemp -d)" node_modules/.bin/code-server --version
