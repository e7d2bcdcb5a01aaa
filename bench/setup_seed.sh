#!/usr/bin/env bash
# Installs what bench/_seed_pipeline.py needs (Debian's python3-aiohttp for
# /usr/bin/python3), once: the end-to-end benchmark runs it before the seed row.
set -euo pipefail
if /usr/bin/python3 -c "import aiohttp" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "setup_seed.sh: run as root to apt-get install python3-aiohttp" >&2; exit 1; fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-aiohttp >/dev/null
