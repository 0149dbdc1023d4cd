#!/usr/bin/env bash
# Layout it ran in (carried as build-gpu-run3/, the binaries in g.tar.xz): cur/ the bench harnesses
# of tests/kernels/{rows,groups,tapes}.cu from the code of 6018895 without forward-sums, row_layernorm
# and warp_layernorm with it (built from copies of rows.cu and groups.cu that keep only their
# lines); prev/ the same kernels' from 423e0dc (the session's start); checks/ the check harnesses
# of rows, tapes and pointers .cu and of the two layernorms, as cur/; rows_bench with the vjps of
# cur/; affine_variants (generated vjp as is) and affine_variants_r (the same generated vjp with
# __restrict__ added by hand to its kernel's pointer parameters).
# GPU run: the session's code (cur/) beside the session start's (prev/),
# the checks of the changed kernels against float64 references and compute-sanitizer.
cd "$(dirname "$0")"
tar xJf g.tar.xz
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/machine.txt" 2>&1
for run in 1 2; do
  for b in cur/*.bench; do
    k=$(basename "$b" .bench)
    echo "$k cur run $run: $(timeout 60 "$b" | grep time:)" >> "$out/timings.txt"
    [ -f prev/$k.bench ] && echo "$k prev run $run: $(timeout 60 prev/$k.bench | grep time:)" >> "$out/timings.txt"
  done
done
timeout 120 ./rows_bench > "$out/rows.txt" 2>&1
timeout 120 ./affine_variants > "$out/affine_variants.txt" 2>&1
timeout 120 ./affine_variants_r > "$out/affine_variants_restrict.txt" 2>&1
for check in checks/*.check; do
  k=$(basename "$check" .check)
  echo "== $k" >> "$out/checks.txt"
  { timeout 60 "$check" 1 /tmp/$k.vjp.txt && timeout 60 "checks/$k.reference" /tmp/$k.vjp.txt; } >> "$out/checks.txt" 2>&1 || echo "FAILED" >> "$out/checks.txt"
done
for check in checks/*.check; do
  k=$(basename "$check" .check)
  for tool in memcheck racecheck synccheck; do
    if timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "$check" 1 /tmp/s.txt > /tmp/san.log 2>&1; then
      echo "$k $tool: clean" >> "$out/sanitizer.txt"
    else
      echo "$k $tool: FAILED" >> "$out/sanitizer.txt"; grep -E "=========" /tmp/san.log | head -20 >> "$out/sanitizer.txt"
    fi
  done
done
echo done >> "$out/sanitizer.txt"
