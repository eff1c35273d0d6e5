#!/usr/bin/env bash
# ctest wrapper for delta_interop.mjs: exit 77 (skipped) without node or @duckdb/node-api.
# usage: run_delta_interop.sh <lakestream binary>
set -u
here="$(cd "${0%/*}" && pwd)"
if ! command -v node >/dev/null 2>&1; then echo "SKIP: node not found"; exit 77; fi
if [ ! -d "$here/../../bench/node_modules/@duckdb/node-api" ]; then echo "SKIP: @duckdb/node-api not installed in bench/node_modules"; exit 77; fi
exec node "$here/delta_interop.mjs" "$1"
