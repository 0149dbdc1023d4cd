#!/usr/bin/env python3
"""Runs the kernel tests of one .cu file: for each `// KERNEL: k grid=G block=B param=spec ...`
line, generates k_vjp and k_jvp (with their launchers), compiles them with nvcc for sm_90 (when
nvcc is found: the code must build for the GPU), then builds a harness (adjoint/verify_kernel.h)
and runs it: finite differences and the dot-product test on random inputs. Then the vjp's
results are compared with a float64 reference: the same kernels built for the CPU execution with
every float a double (adjoint/float64.h).

Kernels over 16-bit storage (__nv_bfloat16, __half) are checked in a CPU build that keeps their
values unrounded (ADJOINT_WIDE_STORAGE); a second CPU build rounds as the GPU does, and its vjp is
compared with the float64 reference (as is the GPU's).

`// HOST: f param=spec ...` lines do the same for a host function f that launches kernels: its
f_vjp and f_jvp, checked as functions of all its buffers. A host compiler does not know
K<<<...>>>(...): the CPU builds read the case with each launch written adjoint::launch(K, ...),
which the CPU execution provides. cudaStream_t parameters get the default stream. A spec is a
scalar's value, an array's length [N] (random values in [-1, 1]) or [N:lo:hi], or `null` for an
optional buffer not given.

  run_kernel_case.py CASE.cu --adjoint A [--runtime R] [--gpu] [--seed S] [--keep DIR]

Without --gpu the harness is compiled by the host compiler and runs on the CPU execution of
kernels (ADJOINT_CPU_EXECUTION); with --gpu nvcc builds it and it runs on the GPU. The harness
`k.check [seed [file]]` saves its vjp in `file` for the reference `k.reference file` to compare.

Specs: an array `x=[250]` (random in [-1, 1]) or `x=[250:lo:hi]`; a scalar `n=250`.
Other keys: `wrt=a,b` (passed to the tool), `deterministic` (passed as --deterministic),
`shmem=N*T` (the launch's dynamic shared memory: N * sizeof(T) bytes).

--bench uses the `// BENCH:` lines instead (the same form, with sizes for timing) and times the
forward and the vjp instead of checking them; --build-only builds the harnesses (in --keep)
without running them, for a GPU machine to run.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from prelude import precompiled_prelude


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# What every harness and generated source of a case includes.
PRELUDE = ["<cmath>", "<cstdio>", "<cstdlib>", "<vector>", '"adjoint/cuda.h"', '"adjoint/verify_kernel.h"']


def generated_name(spelling):
    """The name Adjoint gives a function: scale<float,128> is scale_float_128."""
    return re.sub(r"\W+", "_", spelling).strip("_")


def kernel_lines(path, key):
    with open(path) as f:
        return [m.group(1).split() for m in (re.match(r"\s*//\s*" + key + r":(.*)", l) for l in f) if m]


def launcher_params(header, name, host=False):
    """The parameters of `name`'s launcher after the launch configuration (of the host function
    `name` itself, for host code), as (type, name)."""
    entry = name if host else name + "_launch"
    m = re.search(r"cudaError_t " + re.escape(entry) + r"\((.*?)\);", header, re.S)
    if not m:
        sys.exit(f"no {entry} in the generated header")
    params = [p.strip() for p in m.group(1).split(",")][0 if host else 4:]
    if params and params[-1].startswith("adjoint::Bars"):  # a vjp's choice of adjoint::Bars, not the kernel's
        params.pop()
    out = []
    for p in params:
        pm = re.match(r"(.*?)([A-Za-z_]\w*)$", p)
        out.append((pm.group(1).replace(" ", ""), pm.group(2)))
    return out


def split_top(text):
    """`text` split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([{" and 1 or ch in ")]}" and -1 or 0
        if ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def cpu_source(text):
    """The source with each K<<<grid, block[, shmem[, stream]]>>>(args) written
    adjoint::launch(K, grid, block, shmem, stream, args), for a host compiler (K may name an
    instantiation of a template: scale<float>)."""
    def launch(m):
        config = split_top(m.group(2)) + ["0", "0"][: max(0, 4 - len(split_top(m.group(2))))]
        rest = m.string[m.end():].lstrip()
        return f"adjoint::launch({m.group(1)}, {', '.join(config)}" + ("" if rest.startswith(")") else ", ")
    # extern __shared__ float tile[]; (a host compiler knows no extern __shared__): the CPU
    # execution's dynamic shared memory.
    text = re.sub(r"extern\s+__shared__\s+(?:__align__\(\d+\)\s+)?(\w+)\s+(\w+)\s*\[\s*\]\s*;",
                  r"\1* \2 = adjoint::dynamic_shared<\1>(0, 1);", text)
    return '#include "adjoint/cuda.h"\n' + re.sub(r"(\w+(?:<[^<>;]*>)?)\s*<<<(.*?)>>>\s*\(", launch, text, flags=re.S)


def harness(case, spelling, stem, grid, block, shmem, specs, vjp_params, jvp_params, seed, mode, bars):
    """The harness's main: `mode` check (the checks, then the vjp saved for the reference), bench
    (timings) or reference (the float64 reference's comparison). A host function has no grid; the
    generated headers are stem.grad.h and stem.jvp.h. `bars`: whether the vjp launcher takes an
    adjoint::Bars, whose adjoint::Bars::fresh is then checked (or timed) against adjoint::Bars::add."""
    kernel = generated_name(spelling)
    differentiated = {n[:-4] for _, n in vjp_params if n.endswith("_bar")} | {n[:-4] for _, n in jvp_params if n.endswith("_dot")}
    kernel_params = [(t, n) for t, n in vjp_params if not n.endswith("_bar")]
    lines = []
    for t, n in kernel_params:
        if n not in specs and t not in ("cudaStream_t", "cublasHandle_t"):
            sys.exit(f"KERNEL {kernel}: no spec for parameter '{n}'")
        if t == "cudaStream_t":
            lines.append(f"cudaStream_t {n} = nullptr;")
            continue
        if t == "cublasHandle_t":
            lines.append(f"cublasHandle_t {n};\n  cublasCreate(&{n});")
            continue
        spec = specs[n]
        elem = t.replace("const", "").replace("*", "")
        diff = "true" if n in differentiated else "false"
        if t.endswith("*") and spec == "null":  # an optional buffer not given (and no derivative)
            lines.append(f"{elem}* {n} = nullptr;")
        elif t.endswith("*"):
            m = re.match(r"\[(\d+)(?::([-\d.e]+):([-\d.e]+))?\]$", spec)
            if not m:
                sys.exit(f"KERNEL {kernel}: '{n}' is an array: give its length as {n}=[N] or {n}=[N:lo:hi]")
            lo, hi = (m.group(2), m.group(3)) if m.group(2) else ("-1", "1")
            lines.append(f'{elem}* {n} = adjoint_check.array<{elem}>("{n}", {m.group(1)}, {diff}, {lo}, {hi});')
        else:
            lines.append(f'{elem}& {n} = adjoint_check.scalar<{elem}>("{n}", static_cast<{elem}>({spec}), {diff});')

    def arg(name, kind):
        base = name[:-4]
        if specs.get(base) == "null":
            return "nullptr"
        scalar = any(n == base and not t.endswith("*") for t, n in kernel_params)
        if kind == "bar":
            return f"adjoint_check.scalarBar({base})" if scalar else f"adjoint_check.derivative({base})"
        return f"adjoint_check.scalarDot({base})" if scalar else f"adjoint_check.derivative({base})"

    forward_args = ", ".join(n for _, n in kernel_params)
    vjp_args = ", ".join(arg(n, "bar") if n.endswith("_bar") else n for _, n in vjp_params)
    jvp_args = ", ".join(arg(n, "dot") if n.endswith("_dot") else n for _, n in jvp_params)
    if grid is None:
        forward = f"[&] {{ {spelling}({forward_args}); check(cudaGetLastError()); }}"
        vjp = f"[&] {{ check({kernel}_vjp({vjp_args})); }}"
        jvp = f"[&] {{ check({kernel}_jvp({jvp_args})); }}"
        fresh = "nullptr"
    else:
        forward = f"[&] {{ check(adjoint::launch({spelling}, grid, block, {shmem}, nullptr, {forward_args})); }}"
        vjp = f"[&] {{ check({kernel}_vjp_launch(grid, block, {shmem}, nullptr, {vjp_args})); }}"
        jvp = f"[&] {{ check({kernel}_jvp_launch(grid, block, {shmem}, nullptr, {jvp_args})); }}"
        fresh = f"[&] {{ check({kernel}_vjp_launch(grid, block, {shmem}, nullptr, {vjp_args}, adjoint::Bars::fresh)); }}" \
            if bars else "nullptr"
    # The launcher refuses one buffer given for two adjoints: the first of two of one type passed
    # again as the second.
    bars = [(t, arg(n, "bar")) for t, n in vjp_params if n.endswith("_bar") and arg(n, "bar") != "nullptr"]
    pair = next(((a, b) for i, (t, a) in enumerate(bars) for u, b in bars[i + 1:] if u == t), None)
    refusal = ""
    if grid is not None and pair:
        twice = ", ".join(pair[0] if a == pair[1] else a for a in
                          (arg(n, "bar") if n.endswith("_bar") else n for _, n in vjp_params))
        refusal = (f"\n  ok = adjoint_check.refused([&] {{ return {kernel}_vjp_launch(grid, block, {shmem}, nullptr, "
                   f"{twice}); }}) && ok;")
    run = {"bench": f"adjoint_check.time({forward},\n         {vjp},\n         {fresh});\n  bool ok = true;",
           "check": f"bool ok = adjoint_check.run({forward},\n                  {vjp},\n                  {jvp},\n                  {fresh});\n"
                    f"  if (argc > 2) ok = adjoint_check.save({vjp}, argv[2]) && ok;{refusal}",
           "reference": f"bool ok = argc > 1 && adjoint_check.compare({vjp}, argv[1]);"}[mode]
    return f"""// Verification harness for {kernel} (generated by tests/run_kernel_case.py).
#include <cstdlib>

#include "adjoint/cuda.h"
#include "adjoint/verify_kernel.h"
{'#include "adjoint/cublas.h"' if any(t == "cublasHandle_t" for t, _ in kernel_params) else ""}
#include "{case}"
#include "{stem}.grad.h"
#include "{stem}.jvp.h"

static void check(cudaError_t status) {{
  if (status != cudaSuccess) {{
    std::fprintf(stderr, "launch failed: %s\\n", cudaGetErrorString(status));
    std::exit(2);
  }}
}}

int main(int argc, char** argv) {{
  adjoint::KernelCheck adjoint_check({"1" if mode == "reference" else "argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : " + str(seed)}u);
  {chr(10).join("  " + l if i else l for i, l in enumerate(lines))}
  {"" if grid is None else f"dim3 grid({grid}), block({block});"}
  {run}
  {"".join(f"cublasDestroy({n});" for t, n in kernel_params if t == "cublasHandle_t")}
  return ok ? 0 : 1;
}}
"""


def build_for_sm90(nvcc, flags, generated, work):
    """The generated kernels must build for the GPU, even where none runs them: nvcc's front end
    reads host and device code, and the device code is compiled for sm_90 (-cuda stops short of
    compiling the host code with the host compiler, which checks nothing more). nvcc's time goes
    to CUDA's headers, so the files are built as few translation units that include them: one per
    time a kernel was generated (a kernel generated twice, checked with and without
    --deterministic, defines the same functions twice). Only where one fails (a rejected file, or
    two files that define the same helper) is each of its files built alone, which names the file."""
    def build(source):
        return run([nvcc, *flags, "-cuda", source, "-o", source + ".ii"])
    units, seen = [], {}  # a kernel's n-th set of files goes to the n-th unit
    for sources, kernel in dict((tuple(s), k) for k, s in generated).items():
        n = seen.get(kernel, 0)
        seen[kernel] = n + 1
        if n == len(units):
            units.append([])
        units[n] += sources
    for n, unit in enumerate(units):
        together = os.path.join(work, f"generated_sm90_{n}.cu")
        with open(together, "w") as f:
            f.writelines(f'#include "{os.path.basename(s)}"\n' for s in unit)
        if build(together).returncode == 0:
            continue
        for s in unit:
            r = build(s)
            if r.returncode != 0:
                sys.exit(f"nvcc rejected {os.path.basename(s)}:\n{r.stdout}{r.stderr}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("path")
    p.add_argument("--adjoint", required=True)
    p.add_argument("--runtime", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runtime"))
    p.add_argument("--cxx", default="g++")
    p.add_argument("--cxxflags", default="", help="extra flags for the host build (sanitizers)")
    p.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc",
                   help="nvcc to build the generated code for sm_90 with; none: do not")
    p.add_argument("--gpu", action="store_true", help="build with nvcc and run on the GPU")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", help="write the generated code and harnesses here")
    p.add_argument("--bench", action="store_true", help="time the BENCH lines' kernels instead of checking")
    p.add_argument("--build-only", action="store_true", help="build the harnesses without running them")
    args = p.parse_args()
    case = os.path.abspath(args.path)
    work = os.path.abspath(args.keep or tempfile.mkdtemp(prefix="adjoint-kernel-"))
    os.makedirs(work, exist_ok=True)
    nvcc = args.nvcc if args.nvcc != "none" and os.path.exists(args.nvcc) else None
    if not nvcc:
        print("note: no nvcc (not found, or --nvcc none): the generated kernels are not built for sm_90 in this run")
    failures = []
    generated = []
    nvcc_flags = ["-std=c++17", "-arch=sm_90", "-Werror", "all-warnings", "-I", args.runtime, "-I", work]
    host = [args.cxx, "-std=c++17", "-O1", "-x", "c++", "-DADJOINT_CPU_EXECUTION", "-Wall", "-Wextra", "-Werror",
            "-Wno-unused-parameter", *args.cxxflags.split(), "-I", args.runtime, "-I", os.path.join(args.runtime, "adjoint", "cpu"),
            "-I", work]
    host += precompiled_prelude(host, work, PRELUDE)
    lines = [(w, False) for w in kernel_lines(case, "BENCH" if args.bench else "KERNEL")]
    lines += [(w, True) for w in kernel_lines(case, "HOST")] if not args.bench else []
    cpu_case = os.path.join(work, os.path.basename(case)[:-3] + ".cpu.cu")
    with open(case) as src, open(cpu_case, "w") as dst:
        dst.write(cpu_source(src.read()))
    for words, host_level in lines:
        spelling, opts = words[0], words[1:]  # scale<float,128> for an instantiation of a template
        kernel = generated_name(spelling)
        # Files of a line with --deterministic get a name of their own: a case may check a kernel both ways.
        stem = kernel + ("_deterministic" if "deterministic" in opts else "")
        specs = dict(o.split("=", 1) for o in opts if "=" in o)
        extra = ["--wrt", specs.pop("wrt")] if "wrt" in specs else []
        if "deterministic" in opts:
            extra.append("--deterministic")
        grid, block = (None, None) if host_level else (specs.pop("grid"), specs.pop("block"))
        # shmem=64*float: the launch's dynamic shared memory, 64 * sizeof(float) bytes
        count, _, element = specs.pop("shmem", "0").partition("*")
        shmem = f"{count} * sizeof({element})" if element else count
        sources = []
        for mode in ("grad", "jvp"):
            out = os.path.join(work, f"{stem}.{mode}.cu")
            r = run([args.adjoint, mode, case, "--fn", spelling, "-o", out, *(extra if mode == "grad" else extra[:2])])
            if r.returncode != 0:
                sys.exit(f"adjoint {mode} --fn {kernel} failed:\n{r.stderr}")
            sources.append(out)
        headers = {mode: open(os.path.join(work, f"{stem}.{mode}.h")).read() for mode in ("grad", "jvp")}
        params = (launcher_params(headers["grad"], kernel + "_vjp", host_level),
                  launcher_params(headers["jvp"], kernel + "_jvp", host_level))
        modes = ["bench"] if args.bench else ["check", "reference"]
        for mode in modes:
            included = case if args.gpu and mode != "reference" else cpu_case
            with open(os.path.join(work, f"{stem}.{mode}.cu"), "w") as f:
                f.write(harness(included, spelling, stem, grid, block, shmem, specs, *params, args.seed, mode,
                                "adjoint::Bars" in headers["grad"]))
        exe = os.path.join(work, f"{stem}.{modes[0]}")
        main_file = exe + ".cu"
        generated.append((kernel, sources))
        # 16-bit storage (__nv_bfloat16, __half): the CPU checks keep values unrounded
        # (ADJOINT_WIDE_STORAGE), where finite differences can see the derivatives; a second CPU
        # build, and the GPU's, round as the formats do and are compared with the float64 reference.
        storage = any("__nv_bfloat16" in t or "__half" in t for t, _ in params[0])
        wide = ["-DADJOINT_WIDE_STORAGE"] if storage else []
        narrow = exe + "_narrow" if storage and not args.gpu and not args.bench else None
        if args.gpu:
            r = run([nvcc, *nvcc_flags, "-O3", main_file, *sources, "-o", exe, "-lcublas"])
        else:
            r = run([*host, *wide, main_file, *sources, "-o", exe])
            if r.returncode == 0 and narrow:
                r = run([*host, main_file, *sources, "-o", narrow])
        if r.returncode == 0 and not args.bench:
            reference = os.path.join(work, f"{stem}.reference")
            r = run([*host, *wide, "-include", "adjoint/float64.h", reference + ".cu", sources[0], "-o", reference])
        if r.returncode != 0:
            sys.exit(f"building the harness of {kernel} failed:\n{r.stdout}{r.stderr}")
        if args.build_only:
            continue
        saved = os.path.join(work, f"{stem}.vjp.txt")
        r = run([exe, str(args.seed), saved] if not args.bench else [exe])
        print(f"== {stem}\n{r.stdout}{r.stderr}", end="")
        if r.returncode == 0 and not args.bench:
            r = run([reference, saved])
            print(f"{r.stdout}{r.stderr}", end="")
        if r.returncode == 0 and narrow:
            r = run([narrow, str(args.seed), saved])
            print(f"-- rounding to 16 bits as the GPU does\n{r.stdout}{r.stderr}", end="")
            if r.returncode == 0:
                r = run([reference, saved])
                print(f"{r.stdout}{r.stderr}", end="")
        if r.returncode != 0:
            failures.append(stem)
    if nvcc and not args.gpu:
        build_for_sm90(nvcc, nvcc_flags, generated, work)
    if failures:
        sys.exit(f"failed: {' '.join(failures)}; generated code in {work}")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
