#!/usr/bin/env bash
# Here, with nvcc, into OUT (then carried to the GPU machine, where `bash run.sh LOGS` runs in it):
# the checks and benches of tests/kernels/embeddings.cu built by the tool before row segments
# (OLD, f11e007: one sort key per element) and by this one (NEW); the training steps' checks of
# the transformer sample (transformer_deterministic bitwise against its reference since 88bca2f).
#   bash bench/row_segments/build.sh OLD NEW OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$(realpath "$1") new=$(realpath "$2") out=$(realpath -m "$3")
mkdir -p "$out/old" "$out/new" "$out/t"
for v in old new; do
  tool=$([ $v = old ] && echo "$old" || echo "$new")
  python3 tests/run_kernel_case.py tests/kernels/embeddings.cu --adjoint "$tool" --gpu --build-only --keep "$out/$v/k"
  python3 tests/run_kernel_case.py tests/kernels/embeddings.cu --adjoint "$tool" --gpu --bench --build-only \
    --keep "$out/$v/b"
done
python3 tests/run_train_case.py samples/transformer_train/transformer_train.cu --adjoint "$new" --gpu --build-only \
  --keep "$out/t"
find "$out" -type f ! -name '*.check' ! -name '*.reference' ! -name '*.bench' ! -name '*.sh' -delete
strip "$out"/*/*/* "$out"/t/* 2>/dev/null || true
cp bench/row_segments/run.sh "$out/"
