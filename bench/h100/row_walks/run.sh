# Thread-per-row kernels' vjps walked by the warp (transforms/WarpRows): float64 references,
# compute-sanitizer, and timings (matvec's vjp before: mvb/v0.exe, the code generated before).
OUT=$1
cd build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for k in matvec row_weighted_sines; do
  (cd wrc && ./$k.check 1 /tmp/$k.out > /tmp/$k.check.log 2>&1; echo "$k check rc=$?"; ./$k.reference /tmp/$k.out | tail -4)
  for tool in memcheck racecheck synccheck; do
    (cd wrc && compute-sanitizer --tool $tool --error-exitcode 9 ./$k.check 1 > /tmp/$k.$tool.log 2>&1; echo "$k $tool rc=$? $(tail -1 /tmp/$k.$tool.log)")
  done
done
for run in 1 2 3; do
  echo "matvec (before) run $run: $(./mvb/v0.exe | tail -1)"
  for k in matvec row_weighted_sines; do echo "$k run $run: $(./wrb/$k.bench | tail -1)"; done
done
