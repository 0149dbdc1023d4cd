#!/usr/bin/env bash
# Builds, on the development machine, what run.sh runs on the GPU machine (2026-12-07): for every
# tests/kernels file with `// BENCH:` lines, the bench harnesses (each times the forward, the vjp
# with adjoint::Bars::add and with adjoint::Bars::fresh), and the GPU checks of maps.cu, vectors.cu,
# rows.cu and reductions.cu (finite differences, dot-product test, fresh against add, float64
# reference); with BEFORE, a tool without fresh-bars, the same benches as it writes them
# (NAME.bench_before), to time the add path against the code before it.
# Usage: build.sh ADJOINT OUT_DIR [BEFORE]
set -e
adjoint=$1 out=$2 before=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p $out/bench $out/checks
for f in $root/tests/kernels/*.cu; do
  grep -q "^// BENCH:" $f || continue
  k=$out/work_bench_$(basename $f .cu)
  python3 $root/tests/run_kernel_case.py $f --adjoint $adjoint --runtime $root/runtime --gpu --bench --build-only --keep $k > /dev/null
  for b in $k/*.bench; do cp $b $out/bench/; done
  [ -n "$before" ] || continue
  python3 $root/tests/run_kernel_case.py $f --adjoint $before --runtime $root/runtime --gpu --bench --build-only --keep $k.before > /dev/null
  for b in $k.before/*.bench; do cp $b $out/bench/$(basename $b)_before; done
done
for n in maps vectors rows reductions; do
  k=$out/work_check_$n
  python3 $root/tests/run_kernel_case.py $root/tests/kernels/$n.cu --adjoint $adjoint --runtime $root/runtime --gpu --build-only --keep $k > /dev/null
  for c in $k/*.check $k/*.reference; do cp $c $out/checks/; done
done
