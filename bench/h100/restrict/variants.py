#!/usr/bin/env python3
"""variants.py GRAD.cu MODE: prints GRAD.cu with __restrict__ on the pointer parameters of its
__global__ functions: MODE p = primal pointers only (names not ending in _bar), a = all pointers."""
import re, sys
src, mode = open(sys.argv[1]).read(), sys.argv[2]

def fix(m):
    head, params = m.group(1), m.group(2)
    out = []
    for p in params.split(","):
        pm = re.match(r"(.*\*)\s*(\w+)\s*$", p, re.S)
        if pm and (mode == "a" or not pm.group(2).endswith("_bar")):
            p = pm.group(1) + " __restrict__ " + pm.group(2)
        out.append(p)
    return head + ",".join(out) + ")"

print(re.sub(r"(__global__ void \w+\()([^)]*)\)", fix, src), end="")
