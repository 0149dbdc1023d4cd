// Verification of a kernel's generated derivatives: finite differences and the dot-product test
// on random inputs, for a kernel launch seen as one function of all its arrays.
//
// The launch maps the values its arrays (and scalar parameters) hold before it to the values
// its arrays hold after it. With every adjoint seeded with a random w (the convention of the
// generated code: adjoints of arrays the kernel writes carry the seed and come out as the
// adjoint of the values before the launch; adjoints of arrays it only reads are accumulated
// into), the vjp launcher computes J^T w of that map; the jvp launcher computes J v. Checked:
//  - for each differentiated parameter p, the derivative of <w, F(x + h v_p)> at h = 0 by
//    Richardson-extrapolated central differences against <v_p, J^T w>;
//  - the dot-product test <w, J v> = <v, J^T w> for a random v over all parameters.
// Works on the GPU and on the CPU execution (ADJOINT_CPU_EXECUTION) alike: arrays live in device
// memory (cudaMalloc), the comparisons are made in double on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "adjoint/cuda_host.h"

namespace adjoint {

class KernelCheck {
 public:
  explicit KernelCheck(unsigned seed) : rng_(seed) { std::printf("kernel check: seed %u\n", seed); }
  ~KernelCheck() {
    for (Param& p : params_) {
      cudaFree(p.device);
      cudaFree(p.derivative);
    }
  }

  // An array parameter with random values in [lo, hi] (integers for integer types). A
  // differentiated one gets a derivative array: its _bar (vjp) or _dot (jvp).
  template <class T>
  T* array(const char* name, size_t length, bool differentiated, double lo = -1, double hi = 1) {
    Param& p = add(name, length, sizeof(T), sizeof(T), differentiated, isFloating<T>, lo, hi);
    // A 16-bit storage format (__nv_bfloat16, __half) that rounds what it stores.
    narrowStorage_ |= isFloating<T> && static_cast<double>(static_cast<T>(1.0 + 1.0 / 4096)) != 1.0 + 1.0 / 4096;
    p.load = [](const void* d, size_t i) { return static_cast<double>(static_cast<const T*>(d)[i]); };
    p.store = [](void* d, size_t i, double v) { static_cast<T*>(d)[i] = static_cast<T>(v); };
    return static_cast<T*>(p.device);
  }
  template <class T>
  T* derivative(const T* array) {
    return static_cast<T*>(find(array).derivative);
  }
  // A scalar parameter passed by value; `value` is where the launch lambdas read it.
  template <class T>
  T& scalar(const char* name, T value, bool differentiated) {
    auto storage = std::make_shared<T>(value);
    scalars_.push_back(storage);
    double v = static_cast<double>(value);  // (an enumeration's too)
    Param& p = add(name, 1, 0, sizeof(T), differentiated, isFloating<T>, v, v);
    p.host = storage.get();
    p.load = [](const void* d, size_t) { return static_cast<double>(*static_cast<const T*>(d)); };
    p.store = [](void* d, size_t, double v) { *static_cast<T*>(d) = static_cast<T>(v); };
    if (differentiated) {
      auto derivative = std::make_shared<T>(T{});
      scalars_.push_back(derivative);
      p.scalarDerivative = derivative.get();
    }
    return *storage;
  }
  // A differentiated scalar's adjoint, in device memory (vjp), and its tangent (jvp).
  template <class T>
  T* scalarBar(const T& value) {
    return static_cast<T*>(findScalar(&value).derivative);
  }
  template <class T>
  T& scalarDot(const T& value) {
    return *static_cast<T*>(findScalar(&value).scalarDerivative);
  }

  // The checks with the tolerances of the kernel's precision: double's when a floating parameter
  // is a double, float's otherwise. `fresh`: the vjp launched with adjoint::Bars::fresh, if any.
  bool run(const std::function<void()>& forward, const std::function<void()>& vjp, const std::function<void()>& jvp,
           const std::function<void()>& fresh = nullptr) {
    if (narrowStorage_) {
      std::printf(
          "16-bit storage rounds in this build: finite differences cannot resolve it. Checked by a build with "
          "ADJOINT_WIDE_STORAGE; here the vjp is compared with its float64 reference\n");
      return true;
    }
    bool ok = inDouble() ? run(forward, vjp, jvp, 1e-6, 1e-10, 1e-3, 1.1e-16)
                         : run(forward, vjp, jvp, 2e-3, 1e-4, 1e-2, 6e-8);
    return (!fresh || checkFresh(forward, vjp, fresh)) && ok;
  }

  // `tolerance`: the largest relative error accepted in each check. Returns whether all passed.
  // `roundoff`: the unit roundoff of the kernel's arithmetic; the differences' own rounding error
  // (roundoff * |<w, F>| / step) is allowed on top of the tolerance.
  bool run(const std::function<void()>& forward, const std::function<void()>& vjp, const std::function<void()>& jvp,
           double fdTolerance, double dotTolerance, double step, double roundoff) {
    for (Param& p : params_) randomize(p);
    std::vector<std::vector<double>> w;
    for (Param& p : params_) w.push_back(random(p, p.differentiated && p.length > 0 && p.bytes > 0));
    bool ok = true;
    std::printf("%-12s %14s %14s %10s\n", "parameter", "finite diff.", "adjoint", "rel. error");
    for (size_t k = 0; k < params_.size(); ++k) {
      if (!params_[k].differentiated) continue;
      std::vector<std::vector<double>> v(params_.size());
      for (size_t j = 0; j < params_.size(); ++j) v[j] = random(params_[j], j == k);
      double fd = finiteDifference(forward, v, w, step);
      double ad = inner(v, reverse(vjp, w));
      double scale = std::max(std::fabs(fd), std::fabs(ad));
      double error = scale > 0 ? std::fabs(fd - ad) / scale : 0;
      double noise = 8 * roundoff * outputMagnitude_ / step;
      bool pass = error <= fdTolerance || std::fabs(fd - ad) <= noise + 1e-12;
      // Differences with a step 8 times smaller that disagree: a branch or a kink lies within the
      // step, and finite differences say nothing about the derivative (the dot-product test does).
      bool smooth = pass || relativeGap(fd, finiteDifference(forward, v, w, step / 8)) <= fdTolerance;
      ok &= pass || !smooth;
      std::printf("%-12s %14.6e %14.6e %10.2e%s\n", params_[k].name.c_str(), fd, ad, error,
                  pass     ? ""
                  : smooth ? "  FAILED"
                           : "  skipped: the function is not smooth there");
    }
    std::vector<std::vector<double>> v;
    for (Param& p : params_) v.push_back(random(p, p.differentiated));
    std::vector<std::vector<double>> bars = reverse(vjp, w), dots = tangent(jvp, v);
    double magnitude = 0;
    double a = inner(w, dots, &magnitude), b = inner(v, bars, &magnitude);
    double error = magnitude > 0 ? std::fabs(a - b) / magnitude : 0;
    bool pass = error <= dotTolerance;
    std::printf("dot-product test: <w, J v> = %.9e, <v, J^T w> = %.9e, error %.2e relative to the terms%s\n", a, b,
                error, pass ? "" : "  FAILED");
    for (const std::string& name : changedBuffers_)
      std::printf("the vjp changed '%s', a buffer it must leave as it received it  FAILED\n", name.c_str());
    return ok && pass && changedBuffers_.empty();
  }

  // The comparison with a float64 reference: the GPU harness saves the vjp at inputs and seeds
  // drawn from `seed` alone, rounded to float (so that every build of the harness, float64 ones
  // included, draws the same values), with the tolerance of its precision; the reference build
  // (adjoint/float64.h: the same kernels in double, on the CPU execution) recomputes it there
  // and compares, normwise per parameter.
  bool save(const std::function<void()>& vjp, const char* path, unsigned seed = 7) {
    std::vector<std::vector<double>> bars = vjpAt(vjp, seed);
    FILE* f = std::fopen(path, "w");
    if (!f) return false;
    // (16-bit storage: inputs, outputs and adjoints rounded to 8 or 11 significant bits)
    std::fprintf(f, "%u %.3e\n", seed, narrowStorage_ ? 3e-2 : inDouble() ? 1e-12 : 1e-4);
    for (size_t k = 0; k < params_.size(); ++k)
      for (double b : bars[k]) std::fprintf(f, "%zu %.17g\n", k, b);
    return std::fclose(f) == 0;
  }
  bool compare(const std::function<void()>& vjp, const char* path) {
    FILE* f = std::fopen(path, "r");
    unsigned seed = 0;
    double tolerance = 0;
    if (!f || std::fscanf(f, "%u %lf", &seed, &tolerance) != 2) {
      std::fprintf(stderr, "kernel check: cannot read %s\n", path);
      return false;
    }
    std::vector<std::vector<double>> saved(params_.size());
    size_t k = 0;
    double value = 0;
    while (std::fscanf(f, "%zu %lf", &k, &value) == 2 && k < saved.size()) saved[k].push_back(value);
    std::fclose(f);
    std::vector<std::vector<double>> reference = vjpAt(vjp, seed);
    bool ok = true;
    std::printf("%-12s %14s %10s  (the vjp of %s against its float64 reference, seed %u)\n", "parameter", "|reference|",
                "rel. error", path, seed);
    for (size_t j = 0; j < params_.size(); ++j) {
      if (!params_[j].differentiated) continue;
      double difference = 0, norm = 0;
      bool complete = saved[j].size() == reference[j].size();
      for (size_t i = 0; complete && i < reference[j].size(); ++i) {
        difference += (saved[j][i] - reference[j][i]) * (saved[j][i] - reference[j][i]);
        norm += reference[j][i] * reference[j][i];
      }
      double error = norm > 0 ? std::sqrt(difference / norm) : std::sqrt(difference);
      bool pass = complete && error <= tolerance;
      ok &= pass;
      std::printf("%-12s %14.6e %10.2e%s\n", params_[j].name.c_str(), std::sqrt(norm), error, pass ? "" : "  FAILED");
    }
    return ok;
  }

  // adjoint::Bars::fresh against the convention (adjoint::Bars::add), on random inputs and seeds:
  // the adjoints of the arrays the forward leaves as they were come in zero, the others seeded.
  // Both launches must give the same adjoints, except where add leaves zero in a seed (the
  // adjoint of a value the kernel overwrote), which fresh may leave holding another value.
  bool checkFresh(const std::function<void()>& forward, const std::function<void()>& vjp,
                  const std::function<void()>& fresh) {
    for (Param& p : params_) randomize(p);
    std::vector<std::vector<double>> none(params_.size()), seeds;
    setInputs(none, 0);
    std::vector<std::vector<double>> before;
    for (const Param& p : params_) before.push_back(p.bytes ? get(p, p.device) : std::vector<double>{});
    forward();
    cudaDeviceSynchronize();
    for (size_t k = 0; k < params_.size(); ++k) {
      bool writes = params_[k].bytes && get(params_[k], params_[k].device) != before[k];
      seeds.push_back(random(params_[k], params_[k].differentiated && writes));
      std::vector<char> element(params_[k].elementBytes);
      for (double& s : seeds.back()) {  // as the adjoint's type holds it
        params_[k].store(element.data(), 0, s);
        s = params_[k].load(element.data(), 0);
      }
    }
    std::vector<std::vector<double>> added = reverse(vjp, seeds), stored = reverse(fresh, seeds);
    bool ok = true;
    size_t kept = 0;
    for (size_t k = 0; k < params_.size(); ++k) {
      double scale = 0;
      for (double a : added[k]) scale = std::max(scale, std::fabs(a));
      size_t wrong = 0;
      for (size_t i = 0; i < added[k].size(); ++i) {
        bool same = std::fabs(stored[k][i] - added[k][i]) <= (inDouble() ? 1e-12 : 1e-5) * scale;
        bool seedLeft = added[k][i] == 0 && stored[k][i] != 0 && seeds[k][i] != 0;
        kept += seedLeft;
        wrong += !same && !seedLeft;
      }
      if (wrong)
        std::printf("adjoint::Bars::fresh: %zu elements of %s_bar differ from add's  FAILED\n", wrong,
                    params_[k].name.c_str());
      ok &= wrong == 0;
    }
    std::printf("adjoint::Bars::fresh: the adjoints of add, %zu seed elements not zeroed%s\n", kept,
                ok ? "" : "  FAILED");
    return ok && changedBuffers_.empty();
  }

  // Whether `launch`, the vjp launcher given one buffer for two adjoints, refuses it.
  bool refused(const std::function<cudaError_t()>& launch) {
    bool ok = launch() == cudaErrorInvalidValue;
    std::printf("one buffer given for two adjoints: %s\n", ok ? "refused" : "launched  FAILED");
    return ok;
  }

  // Times the forward and the vjp (median of `reps` runs after warm-up, CUDA events) on random
  // inputs, and prints them with their ratio; with `fresh`, also the vjp given adjoint::Bars::fresh.
  void time(const std::function<void()>& forward, const std::function<void()>& vjp,
            const std::function<void()>& fresh = nullptr, int reps = 20) {
    for (Param& p : params_) randomize(p);
    std::vector<std::vector<double>> none(params_.size()), w;
    for (Param& p : params_) w.push_back(random(p, p.differentiated && p.bytes > 0));
    setInputs(none, 0);
    double f = medianMs(forward, reps);
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated)
        put(params_[k], params_[k].derivative, params_[k].bytes ? w[k] : std::vector<double>{0}, true);
    double r = medianMs(vjp, reps);
    std::printf("time: forward %.4f ms, vjp %.4f ms, vjp / forward %.2f", f, r, r / f);
    if (fresh) {
      double s = medianMs(fresh, reps);
      std::printf(", fresh vjp %.4f ms, fresh / forward %.2f", s, s / f);
    }
    std::printf("\n");
  }

 private:
  static double medianMs(const std::function<void()>& work, int reps) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int k = 0; k < 3; ++k) work();
    std::vector<float> times;
    for (int k = 0; k < reps; ++k) {
      cudaEventRecord(start);
      work();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      times.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
  }

  // Floating values: float, double, and the 16-bit storage formats (classes that convert to float).
  template <class T>
  static constexpr bool isFloating =
      std::is_floating_point<T>::value || (std::is_class<T>::value && std::is_convertible<T, float>::value);

  struct Param {
    std::string name;
    size_t length, bytes;  // bytes per element; 0 for a scalar passed by value
    size_t elementBytes;
    bool differentiated, floating;
    double lo, hi;
    void* device = nullptr;  // array values
    void* derivative = nullptr;
    void* host = nullptr;  // scalar value
    void* scalarDerivative = nullptr;
    std::vector<double> initial;
    double (*load)(const void*, size_t) = nullptr;
    void (*store)(void*, size_t, double) = nullptr;
  };
  std::mt19937_64 rng_;
  bool narrowStorage_ = false;
  double outputMagnitude_ = 0;  // the largest sum of |w_i F_i| seen
  std::vector<Param> params_;
  std::vector<std::shared_ptr<void>> scalars_;
  std::set<std::string> changedBuffers_;  // arrays a vjp left different from what it received

  Param& add(const char* name, size_t length, size_t bytes, size_t elementBytes, bool differentiated, bool floating,
             double lo, double hi) {
    Param p;
    p.name = name;
    p.length = length;
    p.bytes = bytes;
    p.elementBytes = elementBytes;
    p.differentiated = differentiated && floating;
    p.floating = floating;
    p.lo = lo;
    p.hi = hi;
    if (bytes) cudaMalloc(&p.device, length * bytes);
    if (p.differentiated) cudaMalloc(&p.derivative, length * elementBytes);
    params_.push_back(p);
    return params_.back();
  }

  Param& findScalar(const void* value) {
    for (Param& p : params_)
      if (p.host == value) return p;
    std::fprintf(stderr, "kernel check: unknown scalar\n");
    std::abort();
  }

  Param& find(const void* array) {
    for (Param& p : params_)
      if (p.device == array) return p;
    std::fprintf(stderr, "kernel check: unknown array\n");
    std::abort();
  }

  void randomize(Param& p) {
    std::uniform_real_distribution<double> u(p.lo, p.hi);
    p.initial.resize(p.length);
    for (double& x : p.initial) x = p.floating ? u(rng_) : std::floor(u(rng_));
    if (!p.bytes) p.initial[0] = p.lo;
  }

  std::vector<double> random(const Param& p, bool nonzero) {
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> r(p.length, 0.0);
    if (nonzero)
      for (double& x : r) x = u(rng_);
    return r;
  }

  // Writes `values` into device memory, or into the host value of a scalar.
  void put(Param& p, void* target, const std::vector<double>& values, bool onDevice) {
    if (!onDevice) {
      p.store(target, 0, values[0]);
      return;
    }
    std::vector<char> buffer(p.length * p.elementBytes);
    for (size_t i = 0; i < p.length; ++i) p.store(buffer.data(), i, values[i]);
    cudaMemcpy(target, buffer.data(), buffer.size(), cudaMemcpyHostToDevice);
  }
  std::vector<double> get(const Param& p, const void* source) {
    std::vector<char> buffer(p.length * p.elementBytes);
    cudaMemcpy(buffer.data(), source, buffer.size(), cudaMemcpyDeviceToHost);
    std::vector<double> out(p.length);
    for (size_t i = 0; i < p.length; ++i) out[i] = p.load(buffer.data(), i);
    return out;
  }

  // Every parameter at initial + h v.
  void setInputs(const std::vector<std::vector<double>>& v, double h) {
    for (size_t k = 0; k < params_.size(); ++k) {
      std::vector<double> x = params_[k].initial;
      for (size_t i = 0; i < x.size() && !v[k].empty(); ++i) x[i] += h * v[k][i];
      Param& p = params_[k];
      put(p, p.bytes ? p.device : p.host, x, p.bytes > 0);
    }
  }

  // <w, F(initial + h v)>: the differentiated arrays' values after the launch, weighted.
  double weightedOutputs(const std::function<void()>& forward, const std::vector<std::vector<double>>& v,
                         const std::vector<std::vector<double>>& w, double h) {
    setInputs(v, h);
    forward();
    cudaDeviceSynchronize();
    double sum = 0, magnitude = 0;
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated && params_[k].bytes) {
        std::vector<double> out = get(params_[k], params_[k].device);
        for (size_t i = 0; i < out.size(); ++i) {
          sum += w[k][i] * out[i];
          magnitude += std::fabs(w[k][i] * out[i]);
        }
      }
    outputMagnitude_ = std::max(outputMagnitude_, magnitude);
    return sum;
  }

  static double relativeGap(double a, double b) {
    double scale = std::max(std::fabs(a), std::fabs(b));
    return scale > 0 ? std::fabs(a - b) / scale : 0;
  }

  double finiteDifference(const std::function<void()>& forward, const std::vector<std::vector<double>>& v,
                          const std::vector<std::vector<double>>& w, double h) {
    double d1 = weightedOutputs(forward, v, w, h) - weightedOutputs(forward, v, w, -h);
    double d2 = weightedOutputs(forward, v, w, 2 * h) - weightedOutputs(forward, v, w, -2 * h);
    return (8 * d1 - d2) / (12 * h);  // Richardson: the h^2 error terms cancel
  }

  // Whether the kernel computes in double: a floating parameter is a double.
  bool inDouble() const {
    return std::any_of(params_.begin(), params_.end(),
                       [](const Param& p) { return p.floating && p.elementBytes == 8; });
  }

  // J^T w at inputs and seeds drawn from `seed` alone, every value rounded to float.
  std::vector<std::vector<double>> vjpAt(const std::function<void()>& vjp, unsigned seed) {
    rng_.seed(seed);
    auto toFloat = [](std::vector<double>& values) {
      for (double& x : values) x = static_cast<double>(static_cast<float>(x));
    };
    std::vector<std::vector<double>> w;
    for (Param& p : params_) {
      randomize(p);
      toFloat(p.initial);
      w.push_back(random(p, p.differentiated && p.length > 0 && p.bytes > 0));
      toFloat(w.back());
    }
    return reverse(vjp, w);
  }

  // J^T w: adjoints seeded with w (arrays) and 0 (scalars), read back after the vjp.
  std::vector<std::vector<double>> reverse(const std::function<void()>& vjp,
                                           const std::vector<std::vector<double>>& w) {
    std::vector<std::vector<double>> none(params_.size());
    setInputs(none, 0);
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated)
        put(params_[k], params_[k].derivative, params_[k].bytes ? w[k] : std::vector<double>{0}, true);
    std::vector<std::vector<double>> received;
    for (const Param& p : params_) received.push_back(p.bytes ? get(p, p.device) : std::vector<double>{});
    vjp();
    cudaDeviceSynchronize();
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].bytes && get(params_[k], params_[k].device) != received[k])
        changedBuffers_.insert(params_[k].name);
    std::vector<std::vector<double>> bars(params_.size());
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated) bars[k] = get(params_[k], params_[k].derivative);
    return bars;
  }

  // J v: tangents set to v, read back after the jvp.
  std::vector<std::vector<double>> tangent(const std::function<void()>& jvp,
                                           const std::vector<std::vector<double>>& v) {
    std::vector<std::vector<double>> none(params_.size());
    setInputs(none, 0);
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated) {
        Param& p = params_[k];
        put(p, p.bytes ? p.derivative : p.scalarDerivative, v[k], p.bytes > 0);
      }
    jvp();
    cudaDeviceSynchronize();
    std::vector<std::vector<double>> dots(params_.size());
    for (size_t k = 0; k < params_.size(); ++k)
      if (params_[k].differentiated && params_[k].bytes) dots[k] = get(params_[k], params_[k].derivative);
    return dots;
  }

  static double inner(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
                      double* magnitude = nullptr) {
    double sum = 0;
    for (size_t k = 0; k < a.size(); ++k)
      for (size_t i = 0; i < a[k].size() && i < b[k].size(); ++i) {
        sum += a[k][i] * b[k][i];
        if (magnitude) *magnitude += std::fabs(a[k][i] * b[k][i]);
      }
    return sum;
  }
};

}  // namespace adjoint
