#!/usr/bin/env bash
# Sets everything up, then the main job: Adjoint writes the gradient of a logistic-regression loss
# (samples/logistic_regression), the generated code is compiled next to the forward code, trains
# the model by gradient descent, and checks itself against finite differences and forward mode.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

sample=samples/logistic_regression
out=build/demo
mkdir -p "$out"
echo "== adjoint grad $sample/logistic_regression.cpp --fn loss"
build/bin/adjoint grad "$sample/logistic_regression.cpp" --fn loss -o "$out/logistic_regression.grad.cpp"
build/bin/adjoint jvp "$sample/logistic_regression.cpp" --fn loss -o "$out/logistic_regression.jvp.cpp"
sed -n '/^void loss_grad/,/^}/p' "$out/logistic_regression.grad.cpp"
echo "== compiling the generated code with g++ -Wall -Wextra -Werror"
g++ -std=c++17 -O2 -Wall -Wextra -Werror -I runtime -I "$out" -I "$sample" \
  "$sample/demo.cpp" "$out/logistic_regression.grad.cpp" "$out/logistic_regression.jvp.cpp" -o "$out/demo"
echo "== training with the generated gradient"
"$out/demo"
