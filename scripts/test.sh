#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: unit, golden, numerical, bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure -j 2 "$@"
