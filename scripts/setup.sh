#!/usr/bin/env bash
# Installs what the test suite needs beyond npm: Debian's redis-server, for the
# BullMQ fleet tests (tests/queue/). Idempotent: does nothing when it is there.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "scripts/setup.sh: redis-server is missing and apt-get is not available; install Redis 7 by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
# No service start: the tests run their own server on a free port.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server >/dev/null
