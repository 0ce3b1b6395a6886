#!/usr/bin/env bash
# The HTML report in a real browser (clients/browser-test): headless Chromium from Debian's
# `chromium` and `chromium-driver`, driven by Selenium from PyPI; axe-core (bundled by PyPI's
# axe-selenium-python) finds no violation at the WCAG 2.2 AA tags on the light, dark and
# colour-blind pages; each page's screenshot at 1280x1000 matches its golden PNG within a small
# tolerance; every day's <title> is the server's accessibility label. The pages are the golden
# files that scripts/generate-pictures.sh writes and CLIPictureGoldenTests checks against a real
# streakd, so this needs no server.
# Installs what it lacks: the Debian packages (scripts/ensure-deps.sh) and a venv in
# clients/browser-test/.venv with clients/browser-test/requirements.txt.
# Usage: scripts/test-browser.sh [--update-golden]   (rewrites the golden screenshots; review them)
# The Python: $STREAKD_BROWSER_PYTHON, else the first of python3.13, python3.12, python3, /usr/bin/python3
# (3.9 or newer) that can make a venv.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

pytest_args=()
case "${1:-}" in
  --update-golden) pytest_args+=(--update-golden) ;;
  "") ;;
  *) echo "usage: $0 [--update-golden]" >&2; exit 2 ;;
esac

# fonts-dejavu-core: the pages' first font, so that screenshots do not depend on what else is installed.
scripts/ensure-deps.sh chromium chromium-driver fonts-dejavu-core python3 python3-venv

# "3.11" for an interpreter that is 3.9+ and has venv and ensurepip; nothing otherwise.
python_id() {
  "$1" - 2>/dev/null <<'PY' || true
import sys
if sys.version_info >= (3, 9):
    import ensurepip, venv  # noqa: F401
    print("%d.%d" % sys.version_info[:2])
PY
}
python=""
for candidate in ${STREAKD_BROWSER_PYTHON:-python3.13 python3.12 python3 /usr/bin/python3}; do
  command -v "$candidate" >/dev/null 2>&1 || continue
  if [ -n "$(python_id "$candidate")" ]; then python="$(command -v "$candidate")"; break; fi
done
[ -n "$python" ] || { echo "test-browser: no Python 3.9+ with venv (install python3 python3-venv)" >&2; exit 2; }
version="$(python_id "$python")"

venv=clients/browser-test/.venv
if [ "$(python_id "$venv/bin/python")" != "$version" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
stamp="$venv/.installed-$version-$(cat clients/browser-test/requirements.txt "$0" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  rm -f "$venv"/.installed-*
  pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
  "${pip[@]}" -r clients/browser-test/requirements.txt
  # axe-selenium-python 3.0.0 bundles axe-core 4.10.2, which knows WCAG 2.2 (2.1.6, the last
  # release for older Pythons, bundles axe-core 3.1). It declares Python 3.12+, but it is one
  # small module of Python 3.9 code and a script; Debian 12's python3 is 3.11.
  "${pip[@]}" --no-deps --ignore-requires-python axe-selenium-python==3.0.0
  touch "$stamp"
fi

echo "python $version ($python), $(/usr/bin/chromium --version 2>/dev/null | head -1)"
# Selenium Manager must not look for a driver or browser online: both are Debian's.
export SE_OFFLINE=true
(cd clients/browser-test && "../../$venv/bin/python" -m pytest -q "${pytest_args[@]}")
echo "browser tests took $((SECONDS - start)) s"
