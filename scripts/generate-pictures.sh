#!/usr/bin/env bash
# Regenerates the heatmap pictures of the README's sample year: builds, starts a throwaway
# streakd on an ephemeral port with a fresh data directory, fills it with
# `streak --as-of 2025-06-15 sample --seed 7` and writes
#   docs/images/heatmap-{light,dark,colorblind}.svg     the pictures README.md embeds
#   Tests/StreakCommandTests/Golden/heatmap.svg         the light SVG (CLIPictureGoldenTests)
#   Tests/StreakCommandTests/Golden/report.html         `streak report` (the browser test's page)
#   Tests/StreakCommandTests/Golden/report-{dark,colorblind}.html   the same in the other themes
#   Tests/StreakCommandTests/Golden/heatmap-labels.json `streak --json heatmap --labels`: the
#                                                       server's label of every day, for the browser test
# CLIPictureGoldenTests regenerates them against a real streakd and fails when they differ.
# Usage: scripts/generate-pictures.sh [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" != "--skip-build" ]]; then
    swift build --product streakd >/dev/null
    swift build --product streak >/dev/null
fi
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

mkfifo "$work/listening"
"$bin/streakd" --port 0 --data-dir "$work/data" >"$work/listening" 2>"$work/streakd.log" &
server_pid=$!
read -r -t 30 line <"$work/listening" || { echo "streakd did not start:" >&2; cat "$work/streakd.log" >&2; exit 1; }
[[ "$line" == "streakd listening on "* ]] || { echo "unexpected: $line" >&2; exit 1; }
# Keep reading the server's standard output so that it never blocks on a full pipe.
cat "$work/listening" >/dev/null &

streak() {
    env -u NO_COLOR STREAK_SERVER="${line##* }" STREAK_TOKEN="$(cat "$work/data/token")" \
        "$bin/streak" --as-of 2025-06-15 "$@"
}
streak sample --seed 7 >/dev/null

golden=Tests/StreakCommandTests/Golden
mkdir -p docs/images "$golden"
for theme in light dark colorblind; do
    streak heatmap --format svg --theme "$theme" -o "docs/images/heatmap-$theme.svg"
done
streak heatmap --format svg -o "$golden/heatmap.svg"
streak report -o "$golden/report.html"
streak report --theme dark -o "$golden/report-dark.html"
streak report --theme colorblind -o "$golden/report-colorblind.html"
streak --json heatmap --labels -o "$golden/heatmap-labels.json"
echo "wrote docs/images/heatmap-{light,dark,colorblind}.svg and $golden/{heatmap.svg,report*.html,heatmap-labels.json}"
echo "when the pages changed, review them and run scripts/test-browser.sh --update-golden for their screenshots"
