# Thread-per-row kernels whose reverse sums per row (transforms/WarpRows' row sums): float64
# references, compute-sanitizer, timings.
OUT=$1
cd build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for k in row_scaled_sines thread_softmax; do
  (cd rsc && ./$k.check 1 /tmp/$k.out > /tmp/$k.check.log 2>&1; echo "$k check rc=$?"; ./$k.reference /tmp/$k.out | tail -3)
  for tool in memcheck racecheck synccheck; do
    (cd rsc && compute-sanitizer --tool $tool --error-exitcode 9 ./$k.check 1 > /tmp/$k.$tool.log 2>&1; echo "$k $tool rc=$? $(tail -1 /tmp/$k.$tool.log)")
  done
done
for run in 1 2 3; do echo "thread_softmax run $run: $(./rsb/thread_softmax.bench | tail -1)"; done
