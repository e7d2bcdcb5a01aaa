#!/usr/bin/env bash
# Installs what the test suite needs beyond npm, from Debian's packages:
# redis-server, for the BullMQ fleet tests (tests/queue/), and chromium, which
# the report tests (tests/report/) drive headless through playwright-core (no
# browser can be downloaded from a package here). Idempotent: installs only
# what is missing, and does nothing when both are there.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "scripts/setup.sh: ${missing[*]} missing and apt-get is not available; install Redis 7 and Chromium by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
# No service start: the tests run their own Redis on a free port, and their own browser.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
command -v redis-server >/dev/null
command -v chromium >/dev/null
