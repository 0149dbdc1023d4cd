#!/usr/bin/env bash
# The second run (2026-12-07), after the vjp kernels with adjoint::Bars became templates over
# `bool fresh_bars`: maps.cu's GPU checks (fresh against add, float64 references), gelu under
# compute-sanitizer, then every bench of tests/kernels twice (forward, vjp with adjoint::Bars::add,
# with adjoint::Bars::fresh). Built as build.sh builds them, without the earlier tool's benches.
cd "$(dirname "$0")"
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/machine2.txt
for c in checks/*.check; do
  k=$(basename $c .check)
  echo "== $k" >> $out/checks2.txt
  { timeout 60 $c 1 /tmp/$k.vjp.txt && timeout 60 checks/$k.reference /tmp/$k.vjp.txt; } >> $out/checks2.txt 2>&1 || echo FAILED >> $out/checks2.txt
done
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 checks/gelu.check 1 > /dev/null 2>&1 &&
    echo "gelu $tool: clean" >> $out/sanitizer2.txt || echo "gelu $tool: FAILED" >> $out/sanitizer2.txt
done
for r in 1 2; do
  for b in bench/*.bench; do
    echo "$(basename $b .bench) run $r: $(timeout 30 $b 2>&1 | grep time: | tail -1)" >> $out/timings2.txt
  done
done
