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

# The real cases: expanding maps whose dot-product test fails in double only (g40), or in both
# precisions at the checked n and in double only at a smaller n (g16).
r = run_case.run([sys.executable, os.path.join(here, "..", "run_case.py"), "numerical", os.path.join(here, "ill_conditioned.cpp"),
                  "--adjoint", args.adjoint, "--opt=-O0"])
if r.returncode != run_case.ROUNDING_ONLY or "in long double: g40" not in r.stdout or "at n = " not in r.stdout:
    failures.append(f"ill_conditioned.cpp: exit status {r.returncode}, expected {run_case.ROUNDING_ONLY}\n{r.stdout}{r.stderr}")

# The classification, with a stand-in for the long double build that prints `again`.
DOT = "  f        dot product <Jv,w> vs <v,J^T w>          max rel. error {} (tolerance 1e-10)  {}"
GRAD = "  f        gradient vs finite differences           max rel. error {} (tolerance 1e-06)  {}"
work = tempfile.mkdtemp(prefix="adjoint-triage-")


def stand_in(name, output):
    """A script that prints output[n] when run as `name n`, output[None] when run as `name`."""
    path = os.path.join(work, name)
    pattern = lambda n: n or '""'
    branches = "".join(f"  {pattern(n)}) cat <<'END'\n{text}\nEND\n  ;;\n" for n, text in output.items())
    with open(path, "w") as f:
        f.write(f'#!/bin/sh\ncase "$1" in\n{branches}esac\n')
    os.chmod(path, stat.S_IRWXU)
    return path


def sorted_as_rounding(failed, again, smaller_n=None):
    """`failed`: the double build's failure at the checked n; `again`: the long double build's
    line there; smaller_n: {n: (double line, long double line)} for reruns at a smaller n."""
    smaller_n = smaller_n or {}
    exe = stand_in("check", {n: lines[0] for n, lines in smaller_n.items()})
    long_double = stand_in("long_double.sh", {None: again, **{n: lines[1] for n, lines in smaller_n.items()}})
    return run_case.rounding_only(failed, exe, ["cp", long_double, long_double[:-3]])


cases = [
    ("shrinks a hundredfold", DOT.format("3.60e-07", "FAILED"), DOT.format("1.79e-10", "FAILED"), {}, True),
    ("passes in long double", DOT.format("1.34e-09", "FAILED"), DOT.format("2.54e-14", "ok"), {}, True),
    ("as wrong in long double", DOT.format("1.34e-09", "FAILED"), DOT.format("1.30e-09", "FAILED"), {}, False),
    ("a gradient failure", GRAD.format("3.1e-02", "FAILED"), GRAD.format("3.1e-02", "FAILED"), {}, False),
    # Both precisions saturated at the checked n; at n = 4 long double shrinks the mismatch.
    ("shrinks at a smaller n", DOT.format("6.84e-01", "FAILED"), DOT.format("9.23e-01", "FAILED"),
     {"5": (DOT.format("1.18e+00", "FAILED"), DOT.format("8.1e-01", "FAILED")),
      "4": (DOT.format("1.22e+00", "FAILED"), DOT.format("1.22e-06", "FAILED"))}, True),
    # A smaller n whose double run passes is no evidence.
    ("passes at a smaller n in both", DOT.format("6.84e-01", "FAILED"), DOT.format("9.23e-01", "FAILED"),
     {"3": (DOT.format("1.0e-16", "ok"), DOT.format("1.0e-19", "ok"))}, False),
    ("as wrong at every n", DOT.format("6.84e-01", "FAILED"), DOT.format("6.84e-01", "FAILED"),
     {n: (DOT.format("5.0e-01", "FAILED"), DOT.format("5.0e-01", "FAILED")) for n in "5432"}, False),
]
for name, failed, again, smaller_n, expected in cases:
    if sorted_as_rounding(failed, again, smaller_n) != expected:
        failures.append(f"{name}: expected {'rounding' if expected else 'a failure'}")
print("\n".join(failures) or "triage: all cases sorted as expected")
sys.exit(1 if failures else 0)
