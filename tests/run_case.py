#!/usr/bin/env python3
"""Runs one end-to-end test of the adjoint tool.

  numerical CASE  For each `// VERIFY: fn [key=value ...]` line of CASE: generate fn_grad/fn_vjp
                  and fn_jvp, compile them with -Wall -Wextra -Werror, and run
                  adjoint::verify (finite differences, dot-product test). Keys: n, ints (a,b),
                  length, lo, hi, wrt (a,b), changed (arrays the gradient is known to
                  leave changed).
  golden DIR      Regenerate the outputs of the sample in DIR (its `// SAMPLE:` lines) and
                  compare them with the checked-in files.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def directives(path, key):
    with open(path) as f:
        return [m.group(1).strip() for m in (re.match(r"\s*//\s*" + key + r":(.*)", l) for l in f) if m]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def generate(tool, mode, source, fn, out, extra=()):
    r = run([tool, mode, source, "--fn", fn, "-o", out, *extra])
    if r.returncode != 0:
        sys.exit(f"adjoint {mode} --fn {fn} failed:\n{r.stderr}")


def ir_name(fn):
    """The name Adjoint gives the function `fn` names, as ir::functionName does: without namespaces,
    a template's arguments joined by '_' (ns::dot<double> is dot_double)."""
    head = fn.split("<", 1)[0]
    spelled = fn[head.rindex("::") + 2:] if "::" in head else fn
    name = ""
    for c in spelled:
        if c.isalnum() or c == "_":
            name += c
        elif name and not name.endswith("_"):
            name += "_"
    return name if spelled.endswith("_") else name.rstrip("_")


def primal_parameters(header, grad):
    """The parameters of the function that `grad` (a _grad or _vjp in `header`) differentiates,
    declared as the generated code declares them: the gradient's own, less the adjoints."""
    signature = re.search(re.escape(grad) + r"\((.*?)\);", header, re.S).group(1)
    declared = [p.strip() for p in signature.split(",")]
    return [p for p in declared if not parameter_name(p).endswith("_bar")]


def parameter_name(declaration):
    return re.split(r"[\s*&]+", declaration)[-1]


def method_caller(declared, method):
    """A function pointer calling a member function that Adjoint differentiates with its object
    first: a lambda taking those parameters (`declared`) and calling `method` on the object."""
    names = [parameter_name(p) for p in declared]
    return f"+[]({', '.join(declared)}) {{ return {names[0]}.{method}({', '.join(names[1:])}); }}"


def verify_options(kv, declared, where):
    """The VerifyOptions lines of a VERIFY line's options: `name=lo..hi` a parameter's range,
    `name=value` an integer parameter's value, n, length, lo, hi and ints as the verifier has them."""
    params = [parameter_name(p) for p in declared]
    integers = [parameter_name(p) for p in declared
                if re.fullmatch(r"(const )?(unsigned |std::)?(int|long|size_t)", p.rsplit(None, 1)[0])]
    ints, lines = {}, []
    for k, v in kv.items():
        if k in params and ".." in v:
            lo, hi = v.split("..")
            lines.append(f"o.ranges.resize({len(params)}, {{1, 0}});")
            lines.append(f"o.ranges[{params.index(k)}] = {{{lo}, {hi}}};")
        elif k == "ints":
            lines.append(f"o.ints = {{{v}}};")
        elif k in ("n", "length", "lo", "hi"):
            lines.append(f"o.{k} = {v};")
        elif k in integers:
            ints[k] = v
        elif k != "wrt":
            sys.exit(f"{where}: unknown option {k}")
    if ints:
        lines.append(f"o.ints = {{{', '.join(ints.get(k, kv.get('n', '6')) for k in integers)}}};")
    return lines


def numerical(args):
    work = tempfile.mkdtemp(prefix="adjoint-num-")
    case = os.path.abspath(args.path)
    stem = os.path.splitext(os.path.basename(case))[0]
    checks, sources, includes = [], [], []
    for line in directives(case, "VERIFY"):
        spelled, *opts = line.split()
        fn = ir_name(spelled)
        files = re.sub(r"\W+", "_", spelled)  # A::f and B::f: files of their own
        kv = dict(o.split("=", 1) for o in opts)
        extra = ["--wrt", kv["wrt"]] if "wrt" in kv else []
        for mode in ("grad", "jvp"):
            out = os.path.join(work, f"{stem}.{files}.{mode}.cpp")
            if out in sources:  # the same function checked again, at other inputs
                continue
            generate(args.adjoint, mode, case, spelled, out, extra)
            sources.append(out)
            includes.append(f'#include "{stem}.{files}.{mode}.h"')
        with open(os.path.join(work, f"{stem}.{files}.grad.h")) as h:
            header = h.read()
        forward = spelled
        parts = spelled.split("<", 1)[0].split("::")
        method = len(parts) > 1 and re.search(rf"\b{parts[-2]}_{fn}_(grad|vjp)\(", header)
        if method:  # Struct::method: differentiated as Struct_method, its object first
            fn = f"{parts[-2]}_{fn}"
        grad = f"{fn}_grad" if f"{fn}_grad(" in header else f"{fn}_vjp"
        declared = primal_parameters(header, grad)
        if method:
            forward = method_caller(declared, parts[-1])
        option_lines = verify_options(kv, declared, f"{case}: VERIFY {spelled}")
        mask = ""
        if "wrt" in kv:
            # Bit i set: parameter i of fn was differentiated.
            wanted = kv["wrt"].split(",")
            mask = "<" + hex(sum(1 << i for i, p in enumerate(declared) if parameter_name(p) in wanted)) + "ull>"
        # `check N` checks at a smaller n (see rounding_only).
        option_lines.append("if (argc > 1) o.n = std::min(o.n, std::atoi(argv[1]));")
        checks.append("  {\n    adjoint::VerifyOptions o;\n    " + "\n    ".join(option_lines) +
                      f'\n    failures += adjoint::verify{mask}("{fn}", {forward}, {grad}, {fn}_jvp, o);\n  }}')
    if not checks:
        sys.exit(f"{case} has no // VERIFY: line: nothing would be checked")
    main = os.path.join(work, "main.cpp")
    with open(main, "w") as f:
        f.write('#include <algorithm>\n#include <cstdlib>\n\n#include "adjoint/verify.h"\n' + "\n".join(includes) +
                f'\n#include "{case}"\n\n'
                "int main(int argc, char** argv) {\n  int failures = 0;\n" + "\n".join(checks) + "\n  return failures;\n}\n")
    exe = os.path.join(work, "check")
    build = [args.cxx, "-std=c++17", args.opt, *args.cxxflags.split(), "-I", args.runtime, "-I", work, main, *sources]
    # _GLIBCXX_ASSERTIONS: a pop from an empty tape aborts instead of reading garbage.
    r = run([*build, "-Wall", "-Wextra", "-Werror", "-D_GLIBCXX_ASSERTIONS", "-o", exe])
    if r.returncode != 0:
        sys.exit(f"compiling the generated code failed:\n{r.stderr}")
    r = run([exe])
    print(r.stdout, end="")
    if r.returncode != 0:
        if rounding_only(r.stdout, exe, [*build, "-include", "adjoint/long_double.h", "-o", exe + "_long_double"]):
            print(f"generated code kept in {work}")
            sys.exit(ROUNDING_ONLY)
        sys.exit(f"{r.returncode} check(s) failed; generated code kept in {work}")
    shutil.rmtree(work)


# The exit status of a numerical case whose only failures are dot-product tests whose mismatch
# shrinks with the precision of the arithmetic (see rounding_only).
ROUNDING_ONLY = 3


def rounding_only(output, exe, build):
    """Whether every failed check in `output` (of `exe`) is a dot-product test whose mismatch, with
    the same code built by `build` (in long double: 2^11 times finer rounding), passes or shrinks at
    least a hundredfold: rounding amplified by the function's conditioning. A wrong derivative is as
    wrong in any precision. Where loops over n iterate an expanding map, the amplification can
    outgrow long double's precision too (both mismatches of order 1); the comparison is then made
    at a smaller n (`exe N`) where the mismatch in double is still there."""
    failed = [l for l in output.splitlines() if l.endswith("FAILED")]
    if not failed or any("dot product" not in l for l in failed) or run(build).returncode != 0:
        return False
    outputs = {}  # (program, n): its output, run once for all the failed lines

    def output(program, n):
        if (program, n) not in outputs:
            outputs[program, n] = run([program, *([] if n is None else [str(n)])]).stdout
        return outputs[program, n]

    for line in failed:
        evidence = shrinking_mismatch(line, lambda n: output(exe, n), lambda n: output(build[-1], n))
        if not evidence:
            return False
        print(evidence)
    print("the dot-product mismatches shrink with the precision of the arithmetic: rounding amplified by the "
          "function's conditioning, not a wrong derivative")
    return True


def shrinking_mismatch(line, in_double_at, in_long_double_at):
    """The line of the long double build's output (`in_long_double_at(n)`; n None: the checked n)
    that shows the failed `line` of the double build (`in_double_at(n)`) shrink, at the checked n
    or a smaller one; None if there is none."""
    check = line.split("max rel.")[0]
    error = lambda l: float(re.search(r"max rel. error (\S+)", l).group(1))
    same_check = lambda output: next((l for l in output.splitlines() if l.startswith(check)), None)
    for n in (None, 5, 4, 3, 2):
        in_double = line if n is None else same_check(in_double_at(n))
        if not in_double or not in_double.endswith("FAILED"):
            continue  # no mismatch at this n to compare
        again = same_check(in_long_double_at(n))
        if again and (again.endswith("ok") or error(again) <= error(in_double) / 100):
            where = "" if n is None else f" at n = {n} (in double {error(in_double):.2e})"
            return f"in long double{where}: {again.strip()}"
    return None


def golden(args):
    sample = os.path.abspath(args.path)
    name = os.path.basename(sample)
    ext = ".cu" if os.path.exists(os.path.join(sample, name + ".cu")) else ".cpp"
    source = os.path.join(sample, name + ext)
    work = tempfile.mkdtemp(prefix="adjoint-golden-")
    failed = False
    for line in directives(source, "SAMPLE"):
        mode, fn, *extra = line.split()
        kind = {"train-step": "train"}.get(mode, mode)
        out_name = f"{name}.{kind}{ext}"
        shutil.copy(source, work)
        generate(args.adjoint, mode, os.path.join(work, name + ext), fn, os.path.join(work, out_name), extra)
        for produced in (out_name, f"{name}.{kind}.h"):
            expected = os.path.join(sample, produced)
            if args.update:
                shutil.copy(os.path.join(work, produced), expected)
                continue
            r = run(["diff", "-u", expected, os.path.join(work, produced)])
            if r.returncode != 0:
                print(r.stdout)
                failed = True
    shutil.rmtree(work)
    if failed:
        sys.exit("generated code differs from the checked-in files (tests/run_case.py golden --update DIR accepts it)")
    print("generated code matches the checked-in files")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["numerical", "golden"])
    p.add_argument("path")
    p.add_argument("--adjoint", required=True)
    p.add_argument("--runtime", default=os.path.join(os.path.dirname(__file__), "..", "runtime"))
    p.add_argument("--cxx", default="g++")
    p.add_argument("--cxxflags", default="", help="extra flags for compiling generated code (sanitizers)")
    p.add_argument("--opt", default="-O1", help="optimization level for compiling generated code")
    p.add_argument("--update", action="store_true")
    args = p.parse_args()
    {"numerical": numerical, "golden": golden}[args.kind](args)


if __name__ == "__main__":
    main()
