#!/usr/bin/env bash
# On the GPU machine, in the folder build.sh filled (bench/, checks/): the GPU checks against
# float64 references, compute-sanitizer on gelu, affine and row_softmax (both modes run in each
# check), then every bench twice (median of 20 launches each: forward, vjp with adjoint::Bars::add,
# with adjoint::Bars::fresh; and the bench as the tool wrote it before, interleaved). Results in
# $OUT.
cd "$(dirname "$0")"
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/machine.txt
for c in checks/*.check; do
  k=$(basename $c .check)
  echo "== $k" >> $out/checks.txt
  { timeout 60 $c 1 /tmp/$k.vjp.txt && timeout 60 checks/$k.reference /tmp/$k.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
done
for k in gelu affine row_softmax; do
  for tool in memcheck racecheck synccheck; do
    if timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 checks/$k.check 1 > /tmp/san.log 2>&1; then
      echo "$k $tool: clean" >> $out/sanitizer.txt
    else
      echo "$k $tool: FAILED" >> $out/sanitizer.txt; grep "=====" /tmp/san.log | head -10 >> $out/sanitizer.txt
    fi
  done
done
for r in 1 2; do
  for b in bench/*.bench; do
    echo "$(basename $b .bench) run $r: $(timeout 30 $b 2>&1 | grep time: | tail -1)" >> $out/timings.txt
    [ -x ${b}_before ] && echo "$(basename $b .bench) before run $r: $(timeout 30 ${b}_before 2>&1 | grep time: | tail -1)" >> $out/timings.txt
  done
done
