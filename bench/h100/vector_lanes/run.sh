#!/usr/bin/env bash
# pack vjps with their lanes moved in 128-bit accesses (build-gpu/vlanes) against the commit before
# (build-gpu/lanes) and the hand-vectorized prototype (build-gpu/vec)
out=$1; k=build-gpu/vlanes
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/machine.txt 2>&1
(cd build-gpu/vec && for n in residual_forward gelu_f128; do
  nvcc -std=c++17 -arch=sm_90 -O3 -I ../../runtime -I . $n.bench.cu $n.vec.cu $n.jvp.cu -o $n.vec -lcublas &
done; wait)
for check in $k/*.check; do
  n=$(basename $check .check)
  echo "== $n" >> $out/checks.txt
  { $check 1 $out/$n.vjp.txt && $k/$n.reference $out/$n.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
  rm -f $out/$n.vjp.txt
  for tool in memcheck racecheck; do
    echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool $check 1 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> $out/sanitizer.txt
  done
done
for r in 1 2 3; do
  for n in residual_forward gelu_f128; do
    echo "$n before run $r: $(build-gpu/lanes/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n after run $r: $($k/$n.bench | grep time:)" >> $out/timings.txt
    echo "$n hand-vectorized run $r: $(build-gpu/vec/$n.vec | grep time:)" >> $out/timings.txt
  done
done
