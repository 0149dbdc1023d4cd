#!/usr/bin/env bash
# The GPU runs of the kernel work, in two halves:
#   scripts/h200.sh build [CASE.cu ...]
#                           (here, with nvcc): the kernel and host-code checks and timings of
#                           tests/kernels and the samples (or of the CASEs given), the W1, W2 and W3
#                           benchmarks and the training samples' drivers, for sm_90, into build-gpu/
#   scripts/h200.sh run OUT (on the H200 machine, with build-gpu/ carried there): runs the checks on
#                           the GPU, compares each vjp with its float64 reference (built for the
#                           CPU), runs each check under compute-sanitizer memcheck and racecheck, the
#                           timings, the row kernels' vjps beside hand-written backwards
#                           (bench/rows_bench.cu), affine's vjp beside hand-written variants
#                           (bench/affine_variants.cu), the training samples' drivers and the W1, W2
#                           and W3 benchmarks beside PyTorch's (bench/w*_torch.py); logs go to OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
# The samples with a driver that trains them.
samples="mlp_train residual_train transformer_train"
case "${1:-}" in
  build)
    rm -rf build-gpu && mkdir -p build-gpu/kernels
    shift
    cases=("$@")
    [ ${#cases[@]} -gt 0 ] || cases=(tests/kernels/*.cu samples/w1_loss/w1_loss.cu samples/mlp_train/mlp_train.cu
      samples/residual_train/residual_train.cu samples/transformer_train/transformer_train.cu)
    for case in "${cases[@]}"; do
      python3 tests/run_kernel_case.py "$case" --adjoint build/bin/adjoint --gpu --build-only --keep build-gpu/kernels
      python3 tests/run_kernel_case.py "$case" --adjoint build/bin/adjoint --gpu --build-only --bench --keep build-gpu/kernels
    done
    rm -f build-gpu/kernels/*.cu build-gpu/kernels/*.h build-gpu/kernels/*.o build-gpu/kernels/*.gch
    nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I samples/w1_loss bench/w1_bench.cu samples/w1_loss/w1_loss.grad.cu \
      samples/w1_loss/w1_loss.train.cu \
      -o build-gpu/w1_bench
    nvcc -std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime -I samples/mlp_train bench/w2_bench.cu \
      samples/mlp_train/mlp_train.train.cu -lcublas -o build-gpu/w2_bench
    nvcc -std=c++17 -O3 -arch=sm_90 --default-stream per-thread -I runtime -I samples/transformer_train \
      bench/w3_bench.cu samples/transformer_train/transformer_train.train.cu -lcublas -o build-gpu/w3_bench
    # The row kernels' generated vjps beside hand-written backwards (bench/rows_bench.cu).
    mkdir -p build-gpu/gen
    for fn in warp_softmax warp_layernorm; do
      build/bin/adjoint grad tests/kernels/groups.cu --fn $fn -o build-gpu/gen/$fn.grad.cu
    done
    build/bin/adjoint grad tests/kernels/rows.cu --fn thread_softmax -o build-gpu/gen/thread_softmax.grad.cu
    build/bin/adjoint grad samples/transformer_train/transformer_train.cu --fn softmax_cross_entropy \
      -o build-gpu/gen/softmax_cross_entropy.grad.cu
    nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I build-gpu/gen -I bench bench/rows_bench.cu build-gpu/gen/*.grad.cu \
      -lcublas -o build-gpu/rows_bench
    rm -rf build-gpu/gen
    # affine's vjp beside hand-written variants (bench/affine_variants.cu).
    mkdir -p build-gpu/gen
    build/bin/adjoint grad tests/kernels/maps.cu --fn affine -o build-gpu/gen/affine.grad.cu
    nvcc -std=c++17 -O3 -arch=sm_90 -I runtime -I build-gpu/gen -I bench bench/affine_variants.cu \
      build-gpu/gen/affine.grad.cu -o build-gpu/affine_variants
    rm -rf build-gpu/gen
    for sample in $samples; do
      nvcc -std=c++17 -O2 -arch=sm_90 -I runtime -I samples/$sample samples/$sample/train.cu \
        samples/$sample/$sample.train.cu -lcublas -o build-gpu/$sample
    done
    # Without symbols the binaries fit in what the device tool carries (64 MiB).
    strip build-gpu/kernels/* build-gpu/w1_bench build-gpu/w2_bench build-gpu/w3_bench build-gpu/rows_bench \
      build-gpu/affine_variants
    for sample in $samples; do strip build-gpu/$sample; done
    ;;
  run)
    out=${2:?output directory}
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/machine.txt" 2>&1 || true
    failed=0
    # each check, then its vjp against the float64 reference (the same kernels in double on the CPU)
    for check in build-gpu/kernels/*.check; do
      kernel=$(basename "$check" .check)
      echo "== $kernel" >> "$out/checks.txt"
      { "$check" 1 "$out/$kernel.vjp.txt" && "build-gpu/kernels/$kernel.reference" "$out/$kernel.vjp.txt"; } >> "$out/checks.txt" 2>&1 ||
        { echo "FAILED" >> "$out/checks.txt"; failed=1; }
      rm -f "$out/$kernel.vjp.txt"
    done
    build-gpu/w1_bench 26 > "$out/w1.txt" 2>&1 || failed=1
    python3 bench/w1_torch.py 26 >> "$out/w1.txt" 2>&1 || failed=1
    for sample in $samples; do
      build-gpu/$sample > "$out/$sample.txt" 2>&1 || failed=1
    done
    for size in large small; do
      build-gpu/w2_bench $size >> "$out/w2.txt" 2>&1 || failed=1
      python3 bench/w2_torch.py $size >> "$out/w2.txt" 2>&1 || failed=1
    done
    build-gpu/w3_bench > "$out/w3.txt" 2>&1 || failed=1
    python3 bench/w3_torch.py >> "$out/w3.txt" 2>&1 || failed=1
    build-gpu/rows_bench > "$out/rows.txt" 2>&1 || failed=1
    build-gpu/affine_variants > "$out/affine_variants.txt" 2>&1 || failed=1
    for bench in build-gpu/kernels/*.bench; do
      echo "$(basename "$bench" .bench): $("$bench" | grep time:)" >> "$out/timings.txt"
    done
    for check in build-gpu/kernels/*.check; do
      for tool in memcheck racecheck; do
        if compute-sanitizer --tool $tool --error-exitcode 3 "$check" > "$out/sanitizer.log" 2>&1; then
          echo "$(basename "$check" .check) $tool: clean" >> "$out/sanitizer.txt"
        else
          echo "$(basename "$check" .check) $tool: FAILED" >> "$out/sanitizer.txt"
          grep -E "=========" "$out/sanitizer.log" | head -20 >> "$out/sanitizer.txt"
          failed=1
        fi
      done
    done
    rm -f "$out/sanitizer.log"
    exit $failed
    ;;
  *)
    echo "usage: scripts/h200.sh build | run OUT" >&2
    exit 2
    ;;
esac
