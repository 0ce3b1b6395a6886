#!/usr/bin/env bash
# Generates the manual pages of streak, streakd and streak-load with swift-argument-parser's
# manual plugin (GenerateManual, from the help text of each command) and installs them into
# PREFIX/share/man/man1 (default PREFIX: /usr/local, where `man streak` finds them).
# Usage: scripts/install-man.sh [--configuration debug|release] [PREFIX]
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=release
if [ "${1:-}" = "--configuration" ]; then
  configuration="$2"
  shift 2
fi
prefix="${1:-/usr/local}"
date="$(git log -1 --format=%cs 2>/dev/null || date +%F)"

# The plugin builds the executables (in $configuration) and writes one page per tool.
swift package --allow-writing-to-package-directory generate-manual \
  --configuration "$configuration" --date "$date" --section 1 >/dev/null
outputs=.build/plugins/GenerateManual/outputs
install -d "$prefix/share/man/man1"
for tool in streak streakd streak-load; do
  install -m 0644 "$outputs/$tool/$tool.1" "$prefix/share/man/man1/$tool.1"
  echo "installed $prefix/share/man/man1/$tool.1"
done
