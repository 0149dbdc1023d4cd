#!/usr/bin/env bash
# On the GPU machine, in the folder build.sh filled: bash run.sh LOGS
out=$1
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/machine.txt" 2>&1
for check in new/k/*.check; do
  n=$(basename "$check" .check)
  echo "== $n" >> "$out/checks.txt"
  { $check 1 "$out/$n.vjp.txt" && new/k/$n.reference "$out/$n.vjp.txt"; } >> "$out/checks.txt" 2>&1 ||
    echo FAILED >> "$out/checks.txt"
  $check 1 "$out/$n.vjp2.txt" > /dev/null 2>&1
  cmp -s "$out/$n.vjp.txt" "$out/$n.vjp2.txt" && echo "$n: second run bitwise the same" >> "$out/checks.txt" ||
    echo "$n: second run differs" >> "$out/checks.txt"
  rm -f "$out/$n.vjp.txt" "$out/$n.vjp2.txt"
  for tool in memcheck racecheck; do
    echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool $check 1 2>&1 |
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tail -1)" >> "$out/sanitizer.txt"
  done
done
for r in 1 2; do
  for b in new/b/*.bench; do
    n=$(basename "$b" .bench)
    [ -x old/b/$n.bench ] && echo "$n old run $r: $(old/b/$n.bench | grep time:)" >> "$out/timings.txt"
    echo "$n new run $r: $($b | grep time:)" >> "$out/timings.txt"
  done
done
for check in t/*.check t/*/*.check; do
  [ -e "$check" ] || continue
  echo "== $check" >> "$out/train.txt"
  $check >> "$out/train.txt" 2>&1 || echo FAILED >> "$out/train.txt"
done
