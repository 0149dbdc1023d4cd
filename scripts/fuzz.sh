#!/usr/bin/env bash
# Builds the libFuzzer target over the pipeline (in the sanitizer build, CMake preset asan-ubsan:
# Clang 22, AddressSanitizer and UndefinedBehaviorSanitizer)
# and fuzzes it for the given number of seconds (default 60), seeded with the samples and tests
# (kernels included).
# Crashes, sanitizer reports and hangs (over 20 s for one input) fail the run; the input that
# caused one is left in build-asan/ as crash-*, leak-* or timeout-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scripts/setup.sh > /dev/null
cmake --preset asan-ubsan > /dev/null
cmake --build --preset asan-ubsan --target fuzz_pipeline
corpus=build-asan/corpus
mkdir -p "$corpus"
cp samples/*/*[a-z].cpp samples/*/*[a-z].cu tests/numerical/*.cpp tests/bad/*.cpp tests/bad/*.cu tests/kernels/*.cu "$corpus"/ 2>/dev/null || true
cd build-asan
# Diagnostics for malformed inputs go to stderr by design: keep the fuzzer's report readable.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 bin/fuzz_pipeline corpus -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -max_len=65536 -close_fd_mask=2 -print_final_stats=1
