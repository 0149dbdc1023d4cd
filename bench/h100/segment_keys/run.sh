#!/usr/bin/env bash
# deterministic scatters with 32-bit sort keys (keys32) against 64-bit (build-gpu/kernels, older code)
out=$1; k=build-gpu/keys32
for check in $k/*.check; do
  n=$(basename $check .check)
  echo "== $n" >> $out/keys_checks.txt
  { $check 1 $out/$n.vjp.txt && $k/$n.reference $out/$n.vjp.txt; } >> $out/keys_checks.txt 2>&1 || echo FAILED >> $out/keys_checks.txt
  $check 1 $out/$n.vjp2.txt > /dev/null 2>&1
  cmp -s $out/$n.vjp.txt $out/$n.vjp2.txt && echo "$n: second run bitwise the same" >> $out/keys_checks.txt || echo "$n: second run differs" >> $out/keys_checks.txt
  rm -f $out/$n.vjp.txt $out/$n.vjp2.txt
  for tool in memcheck racecheck; do
    echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool $check 1 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> $out/keys_sanitizer.txt
  done
done
for r in 1 2; do
  for n in encoder_forward_deterministic encoder_forward_x128_deterministic; do
    echo "$n 64-bit keys run $r: $(build-gpu/kernels/$n.bench | grep time:)" >> $out/keys_timings.txt
    echo "$n 32-bit keys run $r: $($k/$n.bench | grep time:)" >> $out/keys_timings.txt
  done
  for b in $k/*.bench; do echo "$(basename $b .bench) run $r: $($b | grep time:)" >> $out/keys_timings.txt; done
done
