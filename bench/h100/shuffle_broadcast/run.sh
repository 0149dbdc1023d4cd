#!/usr/bin/env bash
# the adjoint of __shfl_sync step by step: the 32-step gather (shfl_old), a broadcast as a halving sum (shfl_new),
# additions to one element merged (shfl_merged), the seed zeroed after the loads after its if (shfl_deferred)
out=$1; k=build-gpu/shfl_deferred
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/machine.txt 2>&1
for check in $k/*.check; do
  n=$(basename $check .check)
  echo "== $n" >> $out/checks.txt
  { $check 1 $out/$n.vjp.txt && $k/$n.reference $out/$n.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
  rm -f $out/$n.vjp.txt
  for tool in memcheck racecheck synccheck; do
    echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool $check 1 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> $out/sanitizer.txt
  done
done
for r in 1 2 3; do
  for n in warp_broadcast_scan warp_rotate_broadcast; do
    echo "$n gather run $r: $(build-gpu/shfl_old/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n halving sum run $r: $(build-gpu/shfl_new/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n merged additions run $r: $(build-gpu/shfl_merged/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n seed zeroed last run $r: $($k/$n.bench | grep time:)" >> $out/timings.txt
  done
done
