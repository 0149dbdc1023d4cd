# lit configuration of the bad-input tests: each file holds its RUN line (the tool must fail, say
# what FileCheck expects, and leave no output file) and its expected diagnostics as CHECK lines.
#   lit --param adjoint=<tool> --param tools=<LLVM's bin> --param exec_root=<scratch dir> tests/bad
import os

import lit.formats

config.name = "adjoint-bad-input"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".cu"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get("exec_root", os.path.join(os.path.dirname(__file__), "..", "..", "build", "bad"))
config.substitutions.append(("%adjoint", os.path.abspath(lit_config.params["adjoint"])))
tools = lit_config.params.get("tools", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")
# The sanitizer build runs these too, and the tool finds CUDA through CUDA_PATH.
for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "CUDA_PATH", "HOME"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
