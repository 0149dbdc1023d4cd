#!/usr/bin/env bash
# the pack kernels before (build-gpu/kernels) and after (build-gpu/lanes) their lanes were seen as own
out=$1; k=build-gpu/lanes
for check in $k/*.check; do
  n=$(basename $check .check)
  echo "== $n" >> $out/checks.txt
  { $check 1 $out/$n.vjp.txt && $k/$n.reference $out/$n.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
  rm -f $out/$n.vjp.txt
  for tool in memcheck racecheck; do
    echo "$n $tool: $(compute-sanitizer --tool $tool $check 1 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> $out/sanitizer.txt
  done
done
for r in 1 2 3; do
  for n in residual_forward gelu_f128 gelu_bf162; do
    echo "$n before run $r: $(build-gpu/kernels/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n after run $r: $($k/$n.bench | grep time:)" >> $out/timings.txt
  done
done
