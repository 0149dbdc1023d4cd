#!/usr/bin/env bash
# Builds the tool, the runtime and the tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (CMake preset asan-ubsan, in build-asan/) and runs the test suite under them; the code the tests
# generate is compiled with the same sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh > /dev/null
cmake --preset asan-ubsan
cmake --build --preset asan-ubsan
ctest --preset asan-ubsan
