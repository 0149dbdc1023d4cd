"""The headers every build of a kernel or training-step case includes, precompiled once per case
(run_kernel_case.py, run_train_case.py): parsing the C++ library was most of each build."""
import os
import subprocess


def precompiled_prelude(compile_command, work, headers):
    """Flags that include `headers` first, from a header precompiled in `work` with the flags of
    `compile_command` (a compiler and its flags, without inputs). Where it could not be
    precompiled, the header is read as text."""
    header = os.path.join(work, "adjoint_prelude.h")
    with open(header, "w") as f:
        f.write("".join(f"#include {h}\n" for h in headers))
    clang = "clang" in os.path.basename(compile_command[0])
    flags = [a for a in compile_command if a not in ("-x", "c++")]
    built = header + (".pch" if clang else ".gch")
    r = subprocess.run([*flags, "-x", "c++-header", header, "-o", built], capture_output=True)
    if r.returncode != 0:
        return ["-include", header]
    # (GCC finds header.gch where it includes the header; Clang is given its .pch.)
    return ["-include-pch", built] if clang else ["-include", header]
