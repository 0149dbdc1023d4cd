#!/usr/bin/env bash
# Builds and runs the CPU benchmarks (bench/), then writes bench/RESULTS.md with the date and the
# machine: generated gradients against the forward, central differences and ADOL-C, in one run,
# and the time the tool takes per file.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if ! dpkg-query -W -f='${Status}' libadolc-dev 2>/dev/null | grep -q "install ok installed"; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libadolc-dev
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DADJOINT_BUILD_BENCH=ON
cmake --build build --target cpu_gradients adjoint
build/bin/cpu_gradients --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.2 --benchmark_out=build/cpu_gradients.json --benchmark_out_format=json
python3 bench/summarize.py build/cpu_gradients.json build/bin/adjoint > bench/RESULTS.md
cat bench/RESULTS.md
