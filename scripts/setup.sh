#!/usr/bin/env bash
# Installs what Adjoint needs from Debian's packages and builds it into build/ (the tool lands at
# build/bin/adjoint). Safe to run again: installed packages and an up-to-date build are kept.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ python3 ccache clang-22 clang-format-22 libclang-22-dev libclang-cpp22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev
          doctest-dev libbenchmark-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

echo "== building"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
