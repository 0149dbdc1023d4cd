#!/usr/bin/env python3
"""The installed CMake package, end to end: `cmake --install` Adjoint into a fresh prefix, build
samples/cmake-consumer against it (adjoint_generate, adjoint_add_check), run it and its CTest
check; then a rebuild with nothing changed does nothing, and touching a header the forward source
includes regenerates the gradient.

  package_test.py <Adjoint build dir> <source dir>"""
import os
import shutil
import subprocess
import sys
import tempfile

build_dir, source_dir = sys.argv[1], sys.argv[2]
work = tempfile.mkdtemp(prefix="adjoint-package-")
prefix, consumer, consumer_build = (os.path.join(work, d) for d in ("prefix", "consumer", "build"))
failures = []


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(f"$ {' '.join(cmd)}\n{r.stdout[-1500:]}{r.stderr[-1500:]}")
    return r


def check(name, condition):
    print(f"  {'ok' if condition else 'FAILED'}  {name}")
    if not condition:
        failures.append(name)


check("install", run("cmake", "--install", build_dir, "--prefix", prefix).returncode == 0)
shutil.copytree(os.path.join(source_dir, "samples", "cmake-consumer"), consumer)
r = run("cmake", "-S", consumer, "-B", consumer_build, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}")
check("configure against the installed package", r.returncode == 0)
r = run("cmake", "--build", consumer_build)
check("build: the gradient is generated and compiled", r.returncode == 0 and "adjoint grad chain --fn energy" in r.stdout)
check("each function is generated from the source that defines it",
      "adjoint grad pins --fn pin_energy" in r.stdout and "adjoint grad chain --fn pin_energy" not in r.stdout
      and "adjoint grad pins --fn energy" not in r.stdout)
cuda = shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")
if cuda:
    check("a CUDA-language target gets its kernel's gradient, compiled by nvcc",
          "adjoint grad springs --fn spring_loss" in r.stdout and "Building CUDA object" in r.stdout)
else:
    print("note: no nvcc: the consumer's CUDA target was not built")
r = run("ninja", "-C", consumer_build, "-t", "commands", "relax")
generate = [l for l in r.stdout.splitlines() if "--fn energy" in l and " grad " in l]
check("the tool parses with the target's definitions, standard and parse options, not its warnings",
      len(generate) == 1 and all(f in generate[0] for f in ("-DCHAIN_STIFFNESS=40.0", "-std=c++20", "-fno-exceptions"))
      and "-Wall" not in generate[0])
r = run(os.path.join(consumer_build, "relax"))
check("the consumer relaxes the chain with the generated gradients",
      r.returncode == 0 and "gradient norm" in r.stdout and "would pull the end" in r.stdout)
r = run("ctest", "--test-dir", consumer_build, "--output-on-failure")
log = open(os.path.join(consumer_build, "Testing", "Temporary", "LastTest.log")).read()
check("adjoint_add_check's test passes", r.returncode == 0 and "all checks passed" in r.stdout + log)
if cuda:
    check("and so does the kernel's, on the CPU execution of kernels", "spring_loss_check" in log and "dot-product test" in log)
r = run("cmake", "--build", consumer_build)
check("nothing regenerates when nothing changed", r.returncode == 0 and "no work to do" in r.stdout)
os.utime(os.path.join(consumer, "include", "chain.h"))
r = run("cmake", "--build", consumer_build)
check("editing an included header regenerates", r.returncode == 0 and "adjoint grad chain --fn energy" in r.stdout)
check("compile_commands.json lists the generated source", "chain.energy.grad.cpp" in open(
    os.path.join(consumer_build, "compile_commands.json")).read() if os.path.exists(
    os.path.join(consumer_build, "compile_commands.json")) else False)

shutil.rmtree(work)
print(f"{len(failures)} failed" if failures else "the installed package works")
sys.exit(1 if failures else 0)
