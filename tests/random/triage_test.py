#!/usr/bin/env python3
"""How tests/run_case.py sorts failures: a dot-product mismatch that shrinks when the same code
computes in long double is rounding (exit status ROUNDING_ONLY); one that does not, or any other
failed check, stays a failure.

  triage_test.py --adjoint A"""
import argparse
import os
import stat
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
import run_case  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--adjoint", required=True)
args = p.parse_args()
failures = []

# The real case: an expanding map whose dot-product test fails in double only.
r = run_case.run([sys.executable, os.path.join(here, "..", "run_case.py"), "numerical", os.path.join(here, "ill_conditioned.cpp"),
                  "--adjoint", args.adjoint, "--opt=-O0"])
if r.returncode != run_case.ROUNDING_ONLY or "in long double: g40" not in r.stdout:
    failures.append(f"ill_conditioned.cpp: exit status {r.returncode}, expected {run_case.ROUNDING_ONLY}\n{r.stdout}{r.stderr}")

# The classification, with a stand-in for the long double build that prints `again`.
DOT = "  f        dot product <Jv,w> vs <v,J^T w>          max rel. error {} (tolerance 1e-10)  {}"
GRAD = "  f        gradient vs finite differences           max rel. error {} (tolerance 1e-06)  {}"
work = tempfile.mkdtemp(prefix="adjoint-triage-")


def sorted_as_rounding(failed, again):
    exe = os.path.join(work, "long_double")
    with open(exe + ".sh", "w") as f:
        f.write("#!/bin/sh\ncat <<'END'\n" + again + "\nEND\n")
    os.chmod(exe + ".sh", stat.S_IRWXU)
    return run_case.rounding_only(failed, ["cp", exe + ".sh", exe])


cases = [
    ("shrinks a hundredfold", DOT.format("3.60e-07", "FAILED"), DOT.format("1.79e-10", "FAILED"), True),
    ("passes in long double", DOT.format("1.34e-09", "FAILED"), DOT.format("2.54e-14", "ok"), True),
    ("as wrong in long double", DOT.format("1.34e-09", "FAILED"), DOT.format("1.30e-09", "FAILED"), False),
    ("a gradient failure", GRAD.format("3.1e-02", "FAILED"), GRAD.format("3.1e-02", "FAILED"), False),
]
for name, failed, again, expected in cases:
    if sorted_as_rounding(failed, again) != expected:
        failures.append(f"{name}: expected {'rounding' if expected else 'a failure'}")
print("\n".join(failures) or "triage: all cases sorted as expected")
sys.exit(1 if failures else 0)
