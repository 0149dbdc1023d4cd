#!/usr/bin/env bash
# Sets everything up, then the main job: Adjoint writes the training step of an MLP from its
# forward code alone (samples/mlp_train: cuBLAS GEMMs, bias+ReLU kernels updating in place, a
# softmax cross-entropy loss kernel), the generated code is compiled next to a small driver, and
# the model trains: on the GPU where there is one, on the CPU execution of kernels otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

sample=samples/mlp_train
out=build/demo
mkdir -p "$out"
echo "== adjoint train-step $sample/mlp_train.cu --fn mlp --params W1,b1,W2,b2,W3,b3 --optimizer sgd"
build/bin/adjoint train-step "$sample/mlp_train.cu" --fn mlp --params W1,b1,W2,b2,W3,b3 --optimizer sgd \
  -o "$out/mlp_train.train.cu"
sed -n '/^\/\/ Training step of mlp/,/^cudaError_t mlp_train_step/p' "$out/mlp_train.train.h"
echo "   ($(grep -c '' "$out/mlp_train.train.cu") lines of generated CUDA in $out/mlp_train.train.cu)"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  echo "== compiling with nvcc for the GPU"
  nvcc -std=c++17 -O2 -arch=native -I runtime -I "$out" "$sample/train.cu" "$out/mlp_train.train.cu" -lcublas \
    -o "$out/train"
else
  echo "== no GPU here: compiling for the CPU execution of kernels (g++ -Wall -Wextra -Werror)"
  g++ -std=c++17 -O2 -x c++ -DADJOINT_CPU_EXECUTION -Wall -Wextra -Werror -I runtime -I runtime/adjoint/cpu \
    -I "$out" "$sample/train.cu" "$out/mlp_train.train.cu" -o "$out/train"
fi
echo "== training (each step on a fresh batch; the accuracy is measured before the step's update)"
"$out/train"
