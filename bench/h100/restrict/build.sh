#!/usr/bin/env bash
# How the binaries of run.sh were built on the development machine (2026-12-07): for tests/kernels
# FILE and its BENCH kernels, the bench harnesses as the tool wrote them before restrict-pointers
# (KERNEL.bench_g), with __restrict__ added by variants.py to the pointers but the adjoints
# (bench_p) or to all (bench_a), and as the tool wrote them with restrict-pointers (bench_n, built
# the same way from that commit, 77f20a6, since reverted); checks/ holds
# run_kernel_case.py --gpu --build-only harnesses of maps.cu, host.cu's shared_buffers and
# tapes.cu's iterate_with_copy.
#   build.sh ADJOINT FILE KERNEL...      (ADJOINT: the tool to generate with; binaries in out/)
set -e
adjoint=$1 f=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
mkdir -p out
case=out/$(basename $f .cu)_$1.cu
{ grep -v "^// KERNEL:\|^// BENCH:" $f; for k in "$@"; do grep "^// BENCH: $k " $f; done; } > $case
kb=out/kb_$(basename $f .cu)_$1
python3 $root/tests/run_kernel_case.py $case --adjoint $adjoint --runtime $root/runtime --gpu --bench --build-only --keep $kb
for k in "$@"; do
  cp $kb/$k.bench out/$k.bench_g
  for m in p a; do
    python3 $here/variants.py $kb/$k.grad.cu $m > $kb/$k.grad_$m.cu
    nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -I $root/runtime -I $kb -O3 $kb/$k.bench.cu $kb/$k.grad_$m.cu \
      $kb/$k.jvp.cu -o out/$k.bench_$m -lcublas
  done
done
