#!/usr/bin/env python3
"""Turns a Google Benchmark JSON report of cpu_gradients into bench/RESULTS.md: medians, the
gradient/forward ratios, and the tool's own time per sample file."""
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

report = json.load(open(sys.argv[1]))
tool = sys.argv[2]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

medians = {}
for b in report["benchmarks"]:
    if b.get("aggregate_name") == "median":
        _, workload, method = (part.strip() for part in b["run_name"].split("/"))
        medians.setdefault(workload, {})[method] = b["real_time"] / 1e3  # microseconds

methods = ["forward", "adjoint_grad", "adolc_gradient", "adolc_tape_and_gradient", "central_differences"]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"# CPU benchmark results\n\nMeasured {datetime.date.today()} on {cpu}, {os.cpu_count()} cores "
      f"(`scripts/bench.sh`; median of 5 repetitions, g++ -O2).\n")
print("Time per gradient in microseconds, and in units of one forward evaluation:\n")
print("| workload | inputs | forward | Adjoint `_grad` | ADOL-C gradient (tape reused) | ADOL-C tape + gradient | central differences |")
print("|---|---|---|---|---|---|---|")
inputs = {"rosenbrock": 2000, "lennard_jones": 302, "mlp_loss": 1377}
for w, m in medians.items():
    f = m["forward"]
    cells = [f"{m[k]:.1f} ({m[k] / f:.1f}x)" for k in methods[1:]]
    print(f"| {w} | {inputs.get(w, '')} | {f:.1f} | " + " | ".join(cells) + " |")

print("\nThe tool's own time per file (`adjoint grad`, median of 5 runs; parse = Clang parsing the file and "
      "the headers it includes, including <cmath>):\n")
print("| sample | total ms | parse ms | everything after parsing ms |")
print("|---|---|---|---|")
samples = sorted(d for d in os.listdir(os.path.join(root, "samples")) if os.path.isfile(os.path.join(root, "samples", d, d + ".cpp")))
for s in samples:
    src = os.path.join(root, "samples", s, s + ".cpp")
    fn = re.search(r"SAMPLE: grad (\w+)", open(src).read()).group(1)
    totals, parses, rests = [], [], []
    for _ in range(5):
        start = time.perf_counter()
        r = subprocess.run([tool, "grad", src, "--fn", fn, "--emit=ir", "--time-passes"], capture_output=True, text=True)
        totals.append((time.perf_counter() - start) * 1e3)
        stages = dict((k, float(v)) for k, v in re.findall(r"(\w+): ([0-9.e+-]+) ms", r.stderr))
        parses.append(stages.get("parse", 0))
        rests.append(sum(v for k, v in stages.items() if k != "parse"))
    print(f"| {s} | {statistics.median(totals):.0f} | {statistics.median(parses):.0f} | {statistics.median(rests):.2f} |")
