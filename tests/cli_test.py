#!/usr/bin/env python3
"""Tests of the adjoint command line itself: help, compiler flags after -- and from
compile_commands.json (-p), default output names, --emit=ir, the pass table (--list-passes,
--print-before, --print-after, --time-passes), adjoint definitions, adjoint check."""
import json
import os
import subprocess
import sys
import tempfile

TOOL = sys.argv[1]
failures = []


def run(*args, cwd=None):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, cwd=cwd)


def check(name, condition, detail=""):
    print(f"  {'ok' if condition else 'FAILED'}  {name}")
    if not condition:
        failures.append(f"{name}: {detail}")


work = tempfile.mkdtemp(prefix="adjoint-cli-")
os.makedirs(os.path.join(work, "include"))
with open(os.path.join(work, "include", "scale.h"), "w") as f:
    f.write("#pragma once\nconstexpr double kScale = SCALE;\n")
source = os.path.join(work, "model.cpp")
with open(source, "w") as f:
    f.write('#include "scale.h"\ndouble loss(double x) { return kScale * x * x; }\n')

r = run("--help")
check("--help lists the commands", r.returncode == 0 and "grad" in r.stdout and "jvp" in r.stdout, r.stdout)
r = run("grad", "--help")
check("grad --help lists the options", r.returncode == 0 and "--fn" in r.stdout and "--wrt" in r.stdout and "--emit" in r.stdout, r.stdout)
r = run("frobnicate")
check("an unknown command is an error", r.returncode != 0 and "unknown command" in r.stderr, r.stderr)

r = run("grad", source, "--fn", "loss")
check("without flags the include is missing", r.returncode != 0 and "'scale.h' file not found" in r.stderr, r.stderr)
check("and nothing is written", not os.path.exists(os.path.join(work, "model.grad.cpp")))

r = run("grad", source, "--fn", "loss", "--", "-I", os.path.join(work, "include"), "-DSCALE=3")
check("flags after -- reach the compiler", r.returncode == 0, r.stderr)
grad = os.path.join(work, "model.grad.cpp")
check("the default output is <input>.grad.cpp with its header",
      os.path.exists(grad) and os.path.exists(os.path.join(work, "model.grad.h")))
check("the constant from the -D flag is folded in (d(3 x x)/dx = 6 x)", "6.0 * x" in open(grad).read(),
      open(grad).read())

check("the banner's regenerate line keeps the compiler flags",
      f"adjoint grad model.cpp --fn loss -- -I {os.path.join(work, 'include')} -DSCALE=3" in open(grad).read(), open(grad).read()[:300])
constants = os.path.join(work, "constants.cpp")
with open(constants, "w") as f:
    f.write("#include <cmath>\ndouble wave(double t) { return std::sin(2 * M_PI * t) * M_SQRT1_2 + std::erf(t); }\n")
r = run("grad", constants, "--fn", "wave", "-o", "-")
check("constants of <cmath> keep their names in generated code (user code and rules)",
      r.returncode == 0 and "M_PI" in r.stdout and "M_SQRT1_2" in r.stdout and "M_2_SQRTPI" in r.stdout and
      "3.14159" not in r.stdout and "1.12837" not in r.stdout, r.stdout + r.stderr)
definitions = os.path.join(work, "definitions.cpp")
with open(definitions, "w") as f:
    f.write("""#include <algorithm>
#define SQUARE(x) { return x * x; }
namespace physics {
template <class T, int N = 3>
T dot(const T* a, const T* b) {
  T s = 0;
  if (s > norm(a)) { s = 0; }
  return s;
}
struct Chain {
  double energy(const double* x, int n) const noexcept;
  double pull(const double* x) const { return x[0]; }
};
double Chain::energy(const double* x, int n) const noexcept { return x[n - 1]; }
enum class Mode { A, B };
}  // namespace physics
extern "C" {
double c_loss(double x) { return x; }
}
extern "C" double c_other(double x) { return x; }
auto lambda = [](double x) { return x; };
static double table[] = {1.0, 2.0};
__attribute__((noinline)) double attributed(double x) { return std::max(x, 0.0); }
auto trailing(double x) -> decltype(x * x) { return x * x; }
template <> double physics::dot<double, 2>(const double* a, const double* b) { return a[0] * b[0]; }
double declared(double x);
""")
r = run("definitions", definitions)
check("definitions lists the functions a file defines, without preprocessing it",
      r.returncode == 0 and r.stdout.split() == ["physics::dot", "physics::Chain::pull", "physics::Chain::energy",
                                                 "c_loss", "c_other", "attributed", "trailing", "physics::dot"],
      r.stdout + r.stderr)
r = run("--version")
check("--version prints Adjoint's version", r.returncode == 0 and r.stdout.startswith("adjoint 0."), r.stdout + r.stderr)
r = run("grad", source, "--fn", "loss", "-o", "-", "--", "-I", os.path.join(work, "include"), "-DSCALE=3")
check("-o - writes the source to standard output, and no file",
      r.returncode == 0 and "void loss_grad(double x, double *x_bar)" in r.stdout and "#include \"" not in r.stdout and
      not os.path.exists(os.path.join(work, "-")) and not os.path.exists(os.path.join(work, "-.h")), r.stdout + r.stderr)
bad_flags = os.path.join(work, "bad_flags.grad.cpp")
r = run("grad", source, "--fn", "loss", "-o", bad_flags, "--", "-I", os.path.join(work, "include"), "-DSCALE=3", "--",
        "-I/nonexistent")
check("an error of the compiler driver fails the tool", r.returncode != 0 and "no such file" in r.stderr, r.stderr)
check("and nothing is written for it", not os.path.exists(bad_flags))

build = os.path.join(work, "build")
os.makedirs(build)
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump([{"directory": work, "file": source,
                "command": f"c++ -std=c++17 -I{os.path.join(work, 'include')} -DSCALE=5 -c {source}"}], f)
out = os.path.join(work, "db.jvp.cpp")
r = run("jvp", source, "--fn", "loss", "-p", build, "-o", out)
check("-p reads compile_commands.json", r.returncode == 0 and "5.0 * x" in open(out).read(), r.stderr)

r = run("grad", source, "--fn", "loss", "--emit=ir", "--", "-I", os.path.join(work, "include"), "-DSCALE=2")
check("--emit=ir prints the IR", r.returncode == 0 and "loss_grad" in r.stdout and "prepared forward IR" in r.stdout, r.stdout)
r = run("grad", source, "--fn", "loss", "--print-after=all", "--time-passes", "-o", os.path.join(work, "t.cpp"), "--",
        "-I", os.path.join(work, "include"), "-DSCALE=2")
listed = run("--list-passes")
pass_names = [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
check("--list-passes prints the pass table, parse first and format last",
      listed.returncode == 0 and pass_names[:1] == ["parse"] and pass_names[-1:] == ["format"] and "differentiate" in pass_names,
      listed.stdout)
check("--print-after=all shows every pass", all(f"after {p} ----" in r.stderr for p in pass_names), r.stderr)
check("--time-passes times every pass", all(f"  {p}: " in r.stderr for p in pass_names), r.stderr)
r = run("grad", source, "--fn", "loss", "--print-before=dead-code", "--print-after=dead-code", "-o", os.path.join(work, "t.cpp"),
        "--", "-I", os.path.join(work, "include"), "-DSCALE=2")
check("--print-before and --print-after take a pass", r.returncode == 0 and "before dead-code ----" in r.stderr and
      "after dead-code ----" in r.stderr and "after simplify" not in r.stderr, r.stderr)
r = run("grad", source, "--fn", "loss", "--print-after=bogus", "-o", os.path.join(work, "bogus.cpp"))
check("an unknown pass is an error", r.returncode == 1 and "no pass named 'bogus'" in r.stderr and
      not os.path.exists(os.path.join(work, "bogus.cpp")), r.stderr)

# adjoint check: passes on a right derivative, fails (exit 1) on a wrong custom rule.
good = os.path.join(work, "good.cpp")
with open(good, "w") as f:
    f.write("#include <cmath>\ndouble f(const double* x, int n, double t) {\n  double s = 0;\n"
            "  for (int i = 0; i < n; ++i) s += std::exp(t * x[i]);\n  return std::log(s);\n}\n")
r = run("check", good, "--fn", "f", "--seed", "3")
check("check passes a right gradient", r.returncode == 0 and "all checks passed" in r.stdout and "(seed 3)" in r.stdout, r.stdout + r.stderr)
check("check prints a table of errors per parameter", "max abs error" in r.stdout and "\n    x " in r.stdout, r.stdout)
# A function with a derivative rule 1% off.
WRONG_RULE = ("#include <cmath>\ndouble warp(double x) { return std::sin(x); }\n"
              "namespace adjoint::rules {\ninline double warp_dx(double x) { return std::cos(x) * 1.01; }\n}\n")
wrong = os.path.join(work, "wrong.cpp")
with open(wrong, "w") as f:
    f.write(WRONG_RULE + "double f(double x, double y) { return warp(x * y) + x; }\n")
r = run("check", wrong, "--fn", "f")
check("check fails a wrong custom rule", r.returncode == 1 and "FAILED" in r.stdout, r.stdout + r.stderr)
# Inputs on both sides of each branch: a wrong rule used only where x <= 0 passes at the default
# inputs (which never go there, and say so), and fails once --range lets the draws reach it.
branchy = os.path.join(work, "branchy.cpp")
with open(branchy, "w") as f:
    f.write(WRONG_RULE + "double f(double x, double y) { return x > 0 ? x * y : warp(x) * y; }\n")
r = run("check", branchy, "--fn", "f")
check("check says which side of a branch its inputs never took",
      r.returncode == 0 and "x > 0.0" in r.stdout and "false: no" in r.stdout and "widen --range" in r.stdout, r.stdout + r.stderr)
r = run("check", branchy, "--fn", "f", "--range", "-2,2")
check("with --range the checks reach both sides and find the wrong rule",
      r.returncode == 1 and "true: yes false: yes" in r.stdout and "FAILED" in r.stdout, r.stdout + r.stderr)
r = run("check", branchy, "--fn", "f", "--range", "x=-2,-1", "--range", "y=3,4")
check("per-parameter ranges", r.returncode == 1 and "true: no  false: yes" in r.stdout, r.stdout + r.stderr)
r = run("check", branchy, "--fn", "f", "--range", "z=1,2")
check("a range for no parameter is an error", r.returncode == 1 and "'z' is not a parameter" in r.stderr, r.stderr)
r = run("check", branchy, "--fn", "f", "--range", "2,1")
check("a range with lo >= hi is an error", r.returncode == 1 and "lo < hi" in r.stderr, r.stderr)
# A program with its own main, computing a double function through float intrinsics: the check
# builds (the program's main renamed) and compares at float's tolerances.
program = os.path.join(work, "program.cpp")
with open(program, "w") as f:
    f.write("#include <cmath>\n#include <cstdio>\n"
            "double f(double x, double y) { return std::exp(static_cast<float>(x * y)) + expf(x); }\n"
            "int main() { std::printf(\"%g\\n\", f(1, 2)); }\n")
r = run("check", program, "--fn", "f")
check("check works on a program with its own main, at float's tolerances where f computes in float",
      r.returncode == 0 and "all checks passed" in r.stdout, r.stdout + r.stderr)
# Structs, one in a namespace, reached without a hand-written adjoint_fields (a wrong rule on a
# field still fails, so the fields are really drawn and compared).
structs = os.path.join(work, "structs.cpp")
with open(structs, "w") as f:
    f.write(WRONG_RULE + "struct Particle {\n  double x, v;\n  int id;\n};\n"
            "namespace phys {\nstruct Spring {\n  double k, rest;\n};\n}\n"
            "double energy(const Particle& p, phys::Spring s, double m) {\n"
            "  return 0.5 * m * p.v * p.v + s.k * (p.x - s.rest) * (p.x - s.rest);\n}\n"
            "double warped(const Particle& p) { return warp(p.x) * p.v; }\n")
r = run("check", structs, "--fn", "energy")
check("check reaches the fields of structs without adjoint_fields",
      r.returncode == 0 and "all checks passed" in r.stdout, r.stdout + r.stderr)
r = run("check", structs, "--fn", "warped")
check("and a wrong rule on a field fails", r.returncode == 1 and "FAILED" in r.stdout, r.stdout + r.stderr)
harness = os.path.join(work, "harness.cpp")
r = run("check", good, "--fn", "f", "--emit-harness", harness)
check("--emit-harness writes the harness", r.returncode == 0 and "adjoint::verify<" in open(harness).read(), r.stderr)

# adjoint check on a kernel: the CPU execution of kernels runs the harness; a wrong rule fails.
kernel = os.path.join(work, "kernel.cu")
with open(kernel, "w") as f:
    f.write("__global__ void k(const float* x, const float* s, float* loss, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) atomicAdd(loss, s[0] * sinf(x[i]));\n}\n")
r = run("check", kernel, "--fn", "k", "--array-length", "100", "--block", "32", "--seed", "5")
check("check passes a right kernel gradient", r.returncode == 0 and "all checks passed" in r.stdout and "seed 5" in r.stdout, r.stdout + r.stderr)
with open(kernel, "w") as f:
    f.write("__device__ float warp(float x) { return sinf(x); }\n"
            "namespace adjoint::rules {\n__host__ __device__ inline float warp_dx(float x) { return cosf(x) * 1.05f; }\n}\n"
            "__global__ void k(const float* x, float* y, int n) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = warp(x[i]);\n}\n")
r = run("check", kernel, "--fn", "k", "--array-length", "100")
check("check fails a kernel with a wrong rule", r.returncode == 1 and "FAILED" in r.stdout, r.stdout + r.stderr)

# adjoint check on host code: buffers sized from what the steps touch, launches run on the CPU
# execution (the source's launches written as calls), a cuBLAS stand-in; a wrong rule fails.
host = os.path.join(work, "host.cu")
host_source = (
    "#include <cublas_v2.h>\n"
    "__device__ float warp(float x) { return sinf(x); }\n"
    "namespace adjoint::rules {\n__host__ __device__ inline float warp_dx(float x) { return cosf(x) * SCALE; }\n}\n"
    "__global__ void act(const float* x, float* y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = warp(x[i]);\n}\n"
    "void layers(cublasHandle_t handle, const float* W, float* hs, int layers, int width, int batch) {\n"
    "  const float one = 1.0f, zero = 0.0f;\n  const int size = width * batch;\n"
    "  for (int l = 0; l < layers; ++l) {\n"
    "    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, width, batch, width, &one, W + l * width * width, width,\n"
    "                hs + 2 * l * size, width, &zero, hs + (2 * l + 1) * size, width);\n"
    "    act<<<(size + 31) / 32, 32>>>(hs + (2 * l + 1) * size, hs + (2 * l + 2) * size, size);\n"
    "  }\n}\n")
with open(host, "w") as f:
    f.write(host_source.replace("SCALE", "1.0f"))
r = run("check", host, "--fn", "layers", "--int-values", "3,4,5", "--seed", "2")
check("check passes host code over a loop of GEMMs and launches",
      r.returncode == 0 and "all checks passed" in r.stdout and "seed 2" in r.stdout, r.stdout + r.stderr)
check("its buffers are as long as the steps touch", "hs " in r.stdout, r.stdout)
with open(host, "w") as f:
    f.write(host_source.replace("SCALE", "1.05f"))
r = run("check", host, "--fn", "layers", "--int-values", "3,4,5")
check("check fails host code over a kernel with a wrong rule", r.returncode == 1 and "FAILED" in r.stdout, r.stdout + r.stderr)

# adjoint check --params: a training step against f_vjp, f and the optimizer's update on the host.
sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "residual_train", "residual_train.cu")
r = run("check", sample, "--fn", "residual", "--params", "Ws,bs,Wout,bout", "--optimizer", "momentum",
        "--int-values", "3,4,3,3", "--range", "labels=0,3")
check("check --params compares a training step with its unfused reference",
      r.returncode == 0 and "the training step equals the reference" in r.stdout and "Ws " in r.stdout, r.stdout + r.stderr)
# In-place activations: the clamp's and the tanh's pullbacks read their buffers as the kernels leave
# them (K_vjp_from_output), so the step copies out only the g that the square overwrites.
kernels = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels", "host.cu")
step = os.path.join(work, "activations.train.cu")
r = run("train-step", kernels, "--fn", "activations", "--params", "w,b,bias", "--optimizer", "sgd", "-o", step)
source = open(step).read() if r.returncode == 0 else ""
check("a training step reads in-place activations as their kernels leave them, and copies out one buffer",
      "clamp_top_vjp_from_output_launch(" in source and "bias_tanh_vjp_from_output_launch(" in source and
      "square_in_place_vjp_launch(" in source and source.count("adjoint::copy(") == 1, r.stderr + source[:3000])
r = run("check", kernel, "--fn", "k", "--params", "x")
check("check --params on a kernel is an error", r.returncode == 1 and "takes host code" in r.stderr, r.stdout + r.stderr)

# fmax and fmin at a tie: the derivative goes to the second argument, in both modes (relu's
# fmax(a, 0) has derivative 0 at 0, as PyTorch's; adjoint/rules.h reads it from the result, which
# lets a training step differentiate an in-place relu from its output).
ties = os.path.join(work, "ties.cpp")
with open(ties, "w") as f:
    f.write("#include <cmath>\n"
            "double ties(double a, double b) { return std::fmax(a, 0.0) + 2 * std::fmax(a, b) + 4 * std::fmin(b, a); }\n")
built = [run(mode, ties, "--fn", "ties").returncode for mode in ("grad", "jvp")]
driver = os.path.join(work, "ties_main.cpp")
with open(driver, "w") as f:
    f.write('#include <cstdio>\n#include "ties.grad.h"\n#include "ties.jvp.h"\nint main() {\n'
            "  double a_bar = 0, b_bar = 0;\n  ties_grad(0.0, 0.0, &a_bar, &b_bar);\n"
            '  std::printf("%g %g %g %g\\n", a_bar, b_bar, ties_jvp(0.0, 0.0, 1.0, 0.0), ties_jvp(0.0, 0.0, 0.0, 1.0));\n}\n')
r = subprocess.run(["c++", "-std=c++17", "-I", work, driver, os.path.join(work, "ties.grad.cpp"),
                    os.path.join(work, "ties.jvp.cpp"), "-o", os.path.join(work, "ties")], capture_output=True, text=True)
out = subprocess.run([os.path.join(work, "ties")], capture_output=True, text=True).stdout if r.returncode == 0 else ""
# d/da: relu' 0, fmax's tie to b, fmin(b, a)'s tie to a (4); d/db: 2 from fmax, 0 from fmin
check("fmax's and fmin's derivatives at a tie go to the second argument, in both modes",
      built == [0, 0] and out.split() == ["4", "2", "4", "2"], r.stderr + out)

# Very large inputs: nesting beyond the frontend's limit is a diagnostic, not a stack overflow;
# a file of thousands of functions is fine.
deep = os.path.join(work, "deep.cpp")
with open(deep, "w") as f:
    f.write("double f(double x) { return " + " + ".join(["x"] * 25000) + "; }\n")
r = run("grad", deep, "--fn", "f", "-o", os.path.join(work, "deep.grad.cpp"))
check("a 25000-term expression is a diagnostic", r.returncode == 1 and "nested more than" in r.stderr, r.stderr[-500:])
check("and writes nothing", not os.path.exists(os.path.join(work, "deep.grad.cpp")))
many = os.path.join(work, "many.cpp")
with open(many, "w") as f:
    for k in range(3000):
        f.write(f"double f{k}(double x, double y) {{ return x * y + {k} * x; }}\n")
r = run("grad", many, "--fn", "f2999", "-o", os.path.join(work, "many.grad.cpp"))
check("a file of 3000 functions differentiates", r.returncode == 0 and "f2999_grad" in open(os.path.join(work, "many.grad.h")).read(), r.stderr)

print(f"{len(failures)} failed" if failures else "all command-line checks passed")
sys.exit(1 if failures else 0)
