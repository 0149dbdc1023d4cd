#!/usr/bin/env bash
# On the GPU machine, in the folder build.sh filled: the training steps before this work (old),
# with adjoint::Bars::fresh passed to kernel pullbacks (new), and with the loss's picked column
# added after its row (pick), alternating; the GPU checks of the kernels that changed, the
# sample drivers, the training steps' checks, the row kernels beside hand-written backwards, and
# compute-sanitizer on the checks of what changed. Logs go to $1.
set -u
out=${1:?output directory}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/machine.txt" 2>&1
for check in k/*.check; do
  kernel=$(basename "$check" .check)
  echo "== $kernel" >> "$out/checks.txt"
  { "$check" 1 "$out/$kernel.vjp.txt" && "k/$kernel.reference" "$out/$kernel.vjp.txt"; } >> "$out/checks.txt" 2>&1 ||
    echo "FAILED" >> "$out/checks.txt"
  rm -f "$out/$kernel.vjp.txt"
done
# the training steps against their unfused references (tests/run_train_case.py --gpu): the
# deterministic ones bitwise
for check in t/*.check t/*/*.check; do
  [ -e "$check" ] || continue
  echo "== $check" >> "$out/train_checks.txt"
  "$check" >> "$out/train_checks.txt" 2>&1 || echo "FAILED" >> "$out/train_checks.txt"
done
for d in drv_*; do ./$d > "$out/$d.txt" 2>&1 || echo "FAILED" >> "$out/$d.txt"; done
for round in 1 2; do
  for v in old new pick; do
    echo "== w3 $v round $round" >> "$out/w3.txt"; ./w3_$v >> "$out/w3.txt" 2>&1
    for size in large small; do
      echo "== w2 $size $v round $round" >> "$out/w2.txt"; ./w2_$v $size >> "$out/w2.txt" 2>&1
    done
  done
done
# the row kernels' vjps beside hand-written backwards (bench/rows_bench.cu), twice
for round in 1 2; do ./rows_bench >> "$out/rows.txt" 2>&1; done
# compute-sanitizer on the checks of the code that changed: the loss kernel's picked column (the
# transformer's vjp and its training steps), a warp's running maximum (warp_softmax) and a thread's
# row walked by short warps (thread_softmax, blocks of 48)
for check in k/transformer.check k/warp_softmax.check k/thread_softmax.check t/transformer*.check \
  t/*/transformer*.check; do
  [ -e "$check" ] || continue
  for tool in memcheck racecheck; do
    if timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 "$check" > "$out/sanitizer.log" 2>&1; then
      echo "$check $tool: clean" >> "$out/sanitizer.txt"
    else
      echo "$check $tool: FAILED" >> "$out/sanitizer.txt"
      grep -E "=========" "$out/sanitizer.log" | head -20 >> "$out/sanitizer.txt"
    fi
  done
done
rm -f "$out/sanitizer.log"
