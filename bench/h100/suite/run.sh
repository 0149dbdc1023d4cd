#!/usr/bin/env bash
# every BENCH kernel of tests/kernels and samples/embedding: vjp launcher against the forward as written, two runs
out=$1; k=build-gpu/suite
nvidia-smi --query-gpu=name,driver_version --format=csv > $out/machine.txt 2>&1
for r in 1 2; do
  for b in $k/*.bench; do echo "$(basename $b .bench) run $r: $($b | grep time:)" >> $out/timings.txt; done
done
for check in $k/*.check; do
  n=$(basename $check .check)
  echo "== $n" >> $out/checks.txt
  { $check 1 $out/$n.vjp.txt && $k/$n.reference $out/$n.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
  rm -f $out/$n.vjp.txt
  for tool in memcheck racecheck; do
    echo "$n $tool: $(timeout 60 compute-sanitizer --tool $tool $check 1 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> $out/sanitizer.txt
  done
done
