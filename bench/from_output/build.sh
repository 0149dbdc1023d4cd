#!/usr/bin/env bash
# Here, with nvcc, into OUT (then carried to the GPU machine, where `bash run.sh` runs in it): the
# W2 bench over mlp_train's training step as checked in at BEFORE (its in-place bias-ReLU pullbacks
# reading copies of H1 and H2) and in the working tree (K_vjp_from_output: no copies), the MLP
# driver, and the GPU checks of the training steps of mlp_train, tests/kernels/host.cu (among them
# `activations`, whose clamp and tanh pullbacks read their buffers as the kernels leave them) and
# transformer_train (its deterministic step, bitwise since 7ae5c04, not yet seen on a GPU).
#   bash bench/from_output/build.sh TOOL BEFORE OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=$(realpath "$1") before=$2 out=$(realpath -m "$3")
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out/src/before" "$out/t"
flags=(-std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime)
for f in mlp_train.train.cu mlp_train.train.h; do git show "$before:samples/mlp_train/$f" > "$out/src/before/$f"; done
"$nvcc" "${flags[@]}" -I "$out/src/before" bench/w2_bench.cu "$out/src/before/mlp_train.train.cu" -lcublas -o "$out/w2_before"
"$nvcc" "${flags[@]}" -I samples/mlp_train bench/w2_bench.cu samples/mlp_train/mlp_train.train.cu -lcublas -o "$out/w2_after"
"$nvcc" -std=c++17 -O2 -arch=sm_90 -I runtime -I samples/mlp_train samples/mlp_train/train.cu \
  samples/mlp_train/mlp_train.train.cu -lcublas -o "$out/drv_mlp_train"
for c in samples/mlp_train/mlp_train.cu tests/kernels/host.cu samples/transformer_train/transformer_train.cu; do
  python3 tests/run_train_case.py $c --adjoint "$tool" --gpu --build-only --keep "$out/k/$(basename $c .cu)"
done
mv "$out"/k/*/*.check "$out/t/"
rm -rf "$out/src" "$out/k"
strip "$out"/w2_* "$out/drv_mlp_train" "$out"/t/*
cp bench/from_output/run.sh "$out/"
