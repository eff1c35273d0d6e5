#!/usr/bin/env bash
# Typing at the interactive prompt (through a pseudo-terminal): see
# interactive_prompt.py.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/interactive_prompt.py" "$1"
