#!/usr/bin/env python3
"""Differential testing with random programs: generates batches of random differentiable
functions (random_programs) and verifies every generated gradient with tests/run_case.py.

  run_random.py --generator G --adjoint A [--seed S | --fresh] [--count N] [--batch B] [--keep DIR] [--kernels]

--kernels generates CUDA kernels instead and checks them with tests/run_kernel_case.py (nvcc for
sm_90, then the CPU execution of kernels).

--fresh draws the seed from the clock and prints it, so that a failure can be replayed with
--seed. A failing batch is kept (in --keep, default /tmp) with its log. A batch whose only
failures are dot-product mismatches that shrink when the same code computes in long double
(tests/run_case.py: rounding amplified by the function's conditioning) is kept and counted
apart, not as a failure."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
import run_case  # noqa: E402  (its exit statuses)
p = argparse.ArgumentParser()
p.add_argument("--generator", required=True)
p.add_argument("--adjoint", required=True)
p.add_argument("--seed", type=int)
p.add_argument("--fresh", action="store_true")
p.add_argument("--count", type=int, default=40)
p.add_argument("--batch", type=int, default=40)
p.add_argument("--keep", default=tempfile.gettempdir())
p.add_argument("--runtime", default=os.path.join(here, "..", "..", "runtime"))
p.add_argument("--cxxflags", default="")
p.add_argument("--kernels", action="store_true")
p.add_argument("--nvcc", help="passed on to tests/run_kernel_case.py (none: no build for sm_90)")
args = p.parse_args()
seed = int(time.time()) if args.fresh or args.seed is None else args.seed
print(f"random programs: seed {seed}, {args.count} functions in batches of {args.batch}")

work = tempfile.mkdtemp(prefix="adjoint-random-")
checked = failed_batches = rounding_batches = skipped = 0
for b in range(0, args.count, args.batch):
    batch_seed = seed * 1000 + b // args.batch
    source = os.path.join(work, f"random_{batch_seed}" + (".cu" if args.kernels else ".cpp"))
    subprocess.run([args.generator, *(["--kernels"] if args.kernels else []), str(batch_seed),
                    str(min(args.batch, args.count - b)), source], check=True)
    if args.kernels:
        r = subprocess.run([sys.executable, os.path.join(here, "..", "run_kernel_case.py"), source, "--adjoint", args.adjoint,
                            "--runtime", args.runtime, "--cxxflags=" + args.cxxflags, *(["--nvcc", args.nvcc] if args.nvcc else [])],
                           capture_output=True, text=True)
        checked += r.stdout.count("dot-product test")
    else:
        r = subprocess.run([sys.executable, os.path.join(here, "..", "run_case.py"), "numerical", source, "--adjoint",
                            args.adjoint, "--runtime", args.runtime, "--cxxflags=" + args.cxxflags, "--opt=-O0"],
                           capture_output=True, text=True)
        checked += r.stdout.count("gradient vs finite differences")
    skipped += r.stdout.count("skipped")
    print(f"  batch {b // args.batch + 1}: {checked} functions checked so far", flush=True)
    if r.returncode != 0:
        rounding = r.returncode == run_case.ROUNDING_ONLY  # mismatches that shrink in long double
        rounding_batches += rounding
        failed_batches += not rounding
        kept = os.path.join(args.keep, os.path.basename(source))
        shutil.copy(source, kept)
        with open(kept + ".log", "w") as log:
            log.write(r.stdout + r.stderr)
        print(f"{'ROUNDING in' if rounding else 'FAILED'} batch seed {batch_seed}: program kept in {kept}, log in {kept}.log")
        print("\n".join([l for l in (r.stdout + r.stderr).splitlines() if "FAILED" in l or "error" in l or "worst" in l][:20]))
shutil.rmtree(work)
print(f"{checked} functions checked, {skipped} comparisons skipped where a function is not smooth, "
      f"{failed_batches} failing batch(es), {rounding_batches} more whose only failures are dot-product mismatches "
      "that shrink in long double (rounding amplified by ill-conditioning)")
sys.exit(1 if failed_batches else 0)
