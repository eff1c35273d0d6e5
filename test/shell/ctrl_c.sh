#!/usr/bin/env bash
# Ctrl-C in the interactive shell (through a pseudo-terminal) and in -c/-f/
# piped runs: see ctrl_c.py.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/ctrl_c.py" "$1"
