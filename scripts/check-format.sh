#!/usr/bin/env bash
# Checks (or, with --fix, applies) .clang-format on the project's own code: the tool, its passes,
# the runtime headers, unit tests, the random-program generator and the benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'ad/*' 'transforms/*' 'codegen/*' 'runtime/*' 'tests/unit/*' 'tests/random/random_programs.cpp' 'tests/fuzz/*.cpp' \
  'bench/*.cpp' 'bench/*.cu' | grep -E '\.(cpp|h|cu)$')
if [ "${1:-}" = "--fix" ]; then
  clang-format-22 -i $files
else
  clang-format-22 --dry-run --Werror $files
  echo "format: $(echo $files | wc -w) files as .clang-format wants them"
fi
