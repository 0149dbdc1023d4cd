#!/usr/bin/env bash
# Layout it ran in (built on the development machine, carried as build-gpu/): kernels/ holds
# run_kernel_case.py --gpu --build-only [--bench] --keep harnesses of tests/kernels/rows.cu (and
# groups.cu's warp kernels) from the code at 423e0dc; before/ is absent in this run.
# First GPU run of the session: checks against float64 references, timings (after and before the
# join), the side-by-side benches, compute-sanitizer. Logs go to $OUT as they are written.
cd "$(dirname "$0")"
out=${OUT:?}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/machine.txt" 2>&1
chmod +x kernels/* before/* rows_bench affine_variants w1_bench w2_bench w3_bench 2>/dev/null
priority="row_softmax row_layernorm thread_softmax grid_warp_rmsnorm warp_layernorm warp_softmax rows_local rmsnorm_bf16 online_softmax rows_advanced rows_to_helpers stores_through_helpers row_rms4 embedding_bag_deterministic"
for check in kernels/*.check; do
  k=$(basename "$check" .check)
  echo "== $k" >> "$out/checks.txt"
  { timeout 60 "$check" 1 /tmp/$k.vjp.txt && timeout 60 "kernels/$k.reference" /tmp/$k.vjp.txt; } >> "$out/checks.txt" 2>&1 || echo "FAILED" >> "$out/checks.txt"
done
for run in 1 2; do
  for b in kernels/*.bench; do echo "$(basename "$b" .bench) run $run: $(timeout 60 "$b" | grep time:)" >> "$out/timings.txt"; done
  for b in before/*.bench; do echo "$(basename "$b" .bench) run $run: $(timeout 60 "$b" | grep time:)" >> "$out/timings_before.txt"; done
done
timeout 120 ./rows_bench > "$out/rows.txt" 2>&1
timeout 120 ./affine_variants > "$out/affine_variants.txt" 2>&1
san() {
  for tool in memcheck racecheck synccheck; do
    if timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 "kernels/$1.check" 1 /tmp/s.txt > /tmp/san.log 2>&1; then
      echo "$1 $tool: clean" >> "$out/sanitizer.txt"
    else
      echo "$1 $tool: FAILED" >> "$out/sanitizer.txt"; grep -E "=========" /tmp/san.log | head -20 >> "$out/sanitizer.txt"
    fi
  done
}
for k in $priority; do [ -f kernels/$k.check ] && san $k; done
for check in kernels/*.check; do
  k=$(basename "$check" .check)
  case " $priority " in *" $k "*) ;; *) san $k ;; esac
done
echo done >> "$out/sanitizer.txt"
