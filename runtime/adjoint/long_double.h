// The long double build of C++ code and its generated derivatives: force-included
// (-include adjoint/long_double.h), it makes every `double` that follows a `long double`. A check
// that fails in double and passes here failed by rounding, amplified by the function's
// conditioning, not by a wrong derivative: a wrong derivative is as wrong in any precision
// (tests/run_case.py uses it to sort the failures of random programs).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "adjoint/annotations.h"
#include "adjoint/verify.h"

#define double long double
