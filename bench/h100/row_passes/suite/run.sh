#!/usr/bin/env bash
# Layout it ran in (carried as build-gpu-run/, the binaries in g.tar.xz): kernels/ the check and
# bench harnesses of tests/kernels/{rows,groups,pointers,storage,tapes,vectors,embeddings,maps}.cu
# (run_kernel_case.py --gpu --build-only [--bench]) from 423e0dc; before/ the bench harnesses of
# rows.cu, groups.cu and storage.cu built with the join-row-passes entry of driver/Pipeline.cpp
# disabled; new/ tapes.cu's with the tape merge of 02e9320; rows_bench and affine_variants as
# scripts/h200.sh builds them.
# First GPU run of the session: checks against float64 references, timings (after and before the
# join), the side-by-side benches, compute-sanitizer. Logs go to $OUT as they are written.
cd "$(dirname "$0")"
tar xJf g.tar.xz
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
  for b in new/*.bench; do echo "$(basename "$b" .bench) run $run: $(timeout 60 "$b" | grep time:)" >> "$out/timings_new.txt"; done
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
