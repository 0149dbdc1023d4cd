// The CPU execution's 16-bit floating types (runtime/adjoint/cpu/cuda_bf16.h and cuda_fp16.h):
// __nv_bfloat16 and __half keep a float, rounded to the format when a value is stored (to
// nearest, ties to even, as __float2bfloat16 and __float2half round), and read back as float.
// With ADJOINT_WIDE_STORAGE defined, stores keep the value as it came: the checks of a kernel's
// derivatives then see its float arithmetic (finite differences cannot resolve a 16-bit
// rounding), and the float64 reference build (adjoint/float64.h) keeps doubles.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace adjoint::cpu {

// x rounded to `mantissa` stored bits, with exponents from `min_exponent` (frexp's, below which
// values are subnormal: a fixed quantum) and `largest` the largest finite value.
inline float rounded_to(float x, int mantissa, int min_exponent, float largest) {
#ifdef ADJOINT_WIDE_STORAGE
  (void)mantissa, (void)min_exponent, (void)largest;
  return x;
#else
  if (!std::isfinite(x) || x == 0) return x;
  int exponent = 0;
  std::frexp(x, &exponent);
  float quantum = std::ldexp(1.0f, (exponent > min_exponent ? exponent : min_exponent) - 1 - mantissa);
  float r = std::nearbyint(x / quantum) * quantum;
  return std::fabs(r) > largest ? std::copysign(std::numeric_limits<float>::infinity(), x) : r;
#endif
}

// A float stored in 16 bits of the format `Format` (its rounding).
template <class Format>
struct Stored16 {
  float value = 0;
  Stored16() = default;
  template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
  Stored16(T v) : value(Format::round(static_cast<float>(v))) {}
  operator float() const { return value; }
};

// A pair of them (__nv_bfloat162, __half2), aligned as a pair of floats is.
template <class Format>
struct alignas(2 * sizeof(Stored16<Format>)) Pair16 {
  Stored16<Format> x, y;
};

struct BFloat16Format {
  static float round(float x) { return rounded_to(x, 7, -125, 3.3895314e38f); }
};
struct HalfFormat {
  static float round(float x) { return rounded_to(x, 10, -13, 65504.0f); }
};

}  // namespace adjoint::cpu
