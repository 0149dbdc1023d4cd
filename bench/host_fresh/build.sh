#!/usr/bin/env bash
# Here, with nvcc, into OUT (then carried to the GPU machine, where `bash run.sh LOGS` runs in it):
# the W2 and W3 benches over the training steps as checked in at b4ad85e (old: before this work),
# at 51ee90b (new: kernel pullbacks launched with adjoint::Bars::fresh) and in the working tree
# (pick: a row's picked column added after the row, the loss kernel's logits_bar stored); the
# sample drivers; bench/rows_bench.cu; the GPU checks of the transformer sample, groups.cu and
# rows.cu; the training steps' checks of the samples and tests/kernels/host*.cu.
#   bash bench/host_fresh/build.sh TOOL OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=$(realpath "$1") out=$(realpath -m "$2")
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out/k" "$out/t" "$out/gen"
flags=(-std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime)
for v in old new pick; do
  commit=$([ $v = old ] && echo b4ad85e || echo 51ee90b)
  for s in transformer_train mlp_train; do
    mkdir -p "$out/src/$v/$s"
    for f in $s.train.cu $s.train.h; do
      if [ $v = pick ]; then cp samples/$s/$f "$out/src/$v/$s/"; else git show $commit:samples/$s/$f > "$out/src/$v/$s/$f"; fi
    done
  done
  "$nvcc" "${flags[@]}" -I "$out/src/$v/transformer_train" bench/w3_bench.cu \
    "$out/src/$v/transformer_train/transformer_train.train.cu" -lcublas -o "$out/w3_$v"
  "$nvcc" "${flags[@]}" -I "$out/src/$v/mlp_train" bench/w2_bench.cu "$out/src/$v/mlp_train/mlp_train.train.cu" \
    -lcublas -o "$out/w2_$v"
done
for s in transformer_train mlp_train; do
  "$nvcc" -std=c++17 -O2 -arch=sm_90 -I runtime -I samples/$s samples/$s/train.cu samples/$s/$s.train.cu -lcublas \
    -o "$out/drv_$s"
done
for fn in warp_softmax warp_layernorm; do "$tool" grad tests/kernels/groups.cu --fn $fn -o "$out/gen/$fn.grad.cu"; done
"$tool" grad tests/kernels/rows.cu --fn thread_softmax -o "$out/gen/thread_softmax.grad.cu"
"$tool" grad samples/transformer_train/transformer_train.cu --fn softmax_cross_entropy \
  -o "$out/gen/softmax_cross_entropy.grad.cu"
"$nvcc" -std=c++17 -O3 -arch=sm_90 -I runtime -I "$out/gen" -I bench bench/rows_bench.cu "$out"/gen/*.grad.cu -lcublas \
  -o "$out/rows_bench"
for c in samples/transformer_train/transformer_train.cu tests/kernels/groups.cu tests/kernels/rows.cu; do
  python3 tests/run_kernel_case.py $c --adjoint "$tool" --gpu --build-only --keep "$out/k"
done
for c in tests/kernels/host.cu tests/kernels/host_gemm.cu samples/transformer_train/transformer_train.cu \
  samples/mlp_train/mlp_train.cu samples/w1_loss/w1_loss.cu samples/residual_train/residual_train.cu; do
  python3 tests/run_train_case.py $c --adjoint "$tool" --gpu --build-only --keep "$out/t/$(basename $c .cu)"
done
find "$out/k" "$out/t" -type f ! -name '*.check' ! -name '*.reference' -delete
rm -rf "$out/src" "$out/gen"
strip "$out"/w* "$out"/drv_* "$out/rows_bench" "$out"/k/* "$out"/t/*/*
cp bench/host_fresh/run.sh "$out/"
