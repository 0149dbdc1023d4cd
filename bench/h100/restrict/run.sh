#!/usr/bin/env bash
# GPU checks of kernels as the tool now writes them (checks/: maps.cu's, where restrict-pointers
# marks the inputs; host.cu's shared_buffers; tapes.cu's iterate_with_copy), against float64
# references and under compute-sanitizer; then each kernel's bench as generated before
# restrict-pointers (g), as the tool writes it now (n), with __restrict__ on every pointer but the
# adjoints (p), on all (a); twice, interleaved.
cd "$(dirname "$0")"
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/machine.txt
for c in checks/*.check; do
  k=$(basename $c .check)
  echo "== $k" >> $out/checks.txt
  { timeout 60 $c 1 /tmp/$k.vjp.txt && timeout 60 checks/$k.reference /tmp/$k.vjp.txt; } >> $out/checks.txt 2>&1 || echo FAILED >> $out/checks.txt
done
for k in shared_buffers iterate_with_copy affine gelu; do
  for tool in memcheck racecheck synccheck; do
    if timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 checks/$k.check 1 /tmp/s.txt > /tmp/san.log 2>&1; then
      echo "$k $tool: clean" >> $out/sanitizer.txt
    else
      echo "$k $tool: FAILED" >> $out/sanitizer.txt; grep "=====" /tmp/san.log | head -10 >> $out/sanitizer.txt
    fi
  done
done
for r in 1 2; do
  for b in *.bench_g; do
    k=${b%.bench_g}
    for v in g n p a; do
      echo "$k $v run $r: $(timeout 30 ./$k.bench_$v 2>&1 | grep time: | tail -1)" >> $out/timings.txt
    done
  done
done
