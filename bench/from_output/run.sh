#!/usr/bin/env bash
# On the GPU machine, in the folder build.sh wrote: the checks, under memcheck and racecheck too,
# then W2 large and small before and after, alternating, and the MLP driver. Prints everything.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for c in t/*.check; do echo "== $c"; $c 2>&1 | tail -3; done
echo "== t/transformer_deterministic.sgd.check again"; t/transformer_deterministic.sgd.check 2>&1 | tail -2
for c in t/mlp.sgd.check t/activations_deterministic.adamw.check t/transformer_deterministic.sgd.check; do
  for tool in memcheck racecheck; do echo "== $tool $c"; compute-sanitizer --tool $tool $c 2>&1 | tail -2; done
done
for round in 1 2; do
  for v in before after; do echo "== w2 large, $v, round $round"; ./w2_$v 2>&1 | tail -6; done
  for v in before after; do echo "== w2 small, $v, round $round"; ./w2_$v small 2>&1 | tail -6; done
done
echo "== drv_mlp_train"; ./drv_mlp_train 2>&1 | tail -4
