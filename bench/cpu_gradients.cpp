// Generated gradients against the forward function, central finite differences and ADOL-C (a
// tape-based AD library), on the same functions in one run. ADOL-C evaluates the functions
// through `adouble`, so each has a templated twin below, statement for statement the sample's.
#include <adolc/adolc.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

#include "lennard_jones.grad.h"
#include "lennard_jones/lennard_jones.cpp"
#include "mlp_loss.grad.h"
#include "mlp_loss/mlp_loss.cpp"
#include "rosenbrock.grad.h"
#include "rosenbrock/rosenbrock.cpp"

namespace {

template <class T>
T rosenbrock_t(const T* x, int n) {
  T f = 0;
  for (int i = 0; i + 1 < n; ++i) {
    T a = x[i + 1] - x[i] * x[i];
    T b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

template <class T>
T lj_energy_t(const T* pos, int n, T epsilon, T sigma) {
  T energy = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      T dx = pos[3 * i] - pos[3 * j];
      T dy = pos[3 * i + 1] - pos[3 * j + 1];
      T dz = pos[3 * i + 2] - pos[3 * j + 2];
      T r2 = dx * dx + dy * dy + dz * dz + 0.5;
      T s2 = sigma * sigma / r2;
      T s6 = s2 * s2 * s2;
      energy += 4 * epsilon * (s6 * s6 - s6);
    }
  }
  return energy;
}

template <class T>
T mlp_loss_t(const T* X, const T* Y, int batch, int in_dim, int hidden, const T* W1, const T* b1, const T* w2, T b2) {
  using std::tanh;
  T loss = 0;
  for (int n = 0; n < batch; ++n) {
    T h[16];
    for (int k = 0; k < hidden; ++k) {
      T a = b1[k];
      for (int i = 0; i < in_dim; ++i) a += W1[k * in_dim + i] * X[n * in_dim + i];
      h[k] = tanh(a);
    }
    T out = b2;
    for (int k = 0; k < hidden; ++k) out += w2[k] * h[k];
    T err = out - Y[n];
    loss += err * err;
  }
  return loss / batch;
}

// One workload: its inputs flattened into x, and the four ways to get the gradient.
struct Workload {
  std::vector<double> x;
  std::function<double(const double*)> forward;
  std::function<void(const double*, double*)> generated;  // the Adjoint gradient
  std::function<adouble(const adouble*)> traced;          // for ADOL-C
};

std::vector<double> randomVector(size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& e : v) e = u(rng);
  return v;
}

constexpr int kRosenbrockN = 2000;
constexpr int kParticles = 100;
constexpr int kBatch = 64, kIn = 16, kHidden = 16;
constexpr int kMlpSize = kBatch * kIn + kBatch + kHidden * kIn + kHidden + kHidden + 1;

Workload rosenbrockWorkload() {
  Workload w;
  w.x = randomVector(kRosenbrockN, -1, 1, 1);
  w.forward = [](const double* x) { return rosenbrock(x, kRosenbrockN); };
  w.generated = [](const double* x, double* g) { rosenbrock_grad(x, kRosenbrockN, g); };
  w.traced = [](const adouble* x) { return rosenbrock_t(x, kRosenbrockN); };
  return w;
}

// x = positions, then epsilon and sigma.
Workload ljWorkload() {
  Workload w;
  w.x = randomVector(3 * kParticles + 2, 0, 6, 2);
  w.x[3 * kParticles] = 1.0;
  w.x[3 * kParticles + 1] = 0.9;
  w.forward = [](const double* x) { return lj_energy(x, kParticles, x[3 * kParticles], x[3 * kParticles + 1]); };
  w.generated = [](const double* x, double* g) {
    lj_energy_grad(x, kParticles, x[3 * kParticles], x[3 * kParticles + 1], g, g + 3 * kParticles,
                   g + 3 * kParticles + 1);
  };
  w.traced = [](const adouble* x) { return lj_energy_t(x, kParticles, x[3 * kParticles], x[3 * kParticles + 1]); };
  return w;
}

// x = X, Y, W1, b1, w2, b2.
Workload mlpWorkload() {
  Workload w;
  w.x = randomVector(kMlpSize, -1, 1, 3);
  auto parts = [](auto* x) {
    auto* X = x;
    auto* Y = X + kBatch * kIn;
    auto* W1 = Y + kBatch;
    auto* b1 = W1 + kHidden * kIn;
    auto* w2 = b1 + kHidden;
    return std::make_tuple(X, Y, W1, b1, w2, w2 + kHidden);
  };
  w.forward = [parts](const double* x) {
    auto [X, Y, W1, b1, w2, b2] = parts(x);
    return mlp_loss(X, Y, kBatch, kIn, kHidden, W1, b1, w2, *b2);
  };
  w.generated = [parts](const double* x, double* g) {
    auto [X, Y, W1, b1, w2, b2] = parts(x);
    auto [gX, gY, gW1, gb1, gw2, gb2] = parts(g);
    mlp_loss_grad(X, Y, kBatch, kIn, kHidden, W1, b1, w2, *b2, gX, gY, gW1, gb1, gw2, gb2);
  };
  w.traced = [parts](const adouble* x) {
    auto [X, Y, W1, b1, w2, b2] = parts(x);
    return mlp_loss_t(X, Y, kBatch, kIn, kHidden, W1, b1, w2, *b2);
  };
  return w;
}

void tape(const Workload& w, short tag) {
  std::vector<adouble> ax(w.x.size());
  double y;
  trace_on(tag, 1);
  for (size_t i = 0; i < w.x.size(); ++i) ax[i] <<= w.x[i];
  adouble ay = w.traced(ax.data());
  ay >>= y;
  trace_off();
}

void centralDifferences(const Workload& w, std::vector<double>& x, double* g) {
  for (size_t i = 0; i < x.size(); ++i) {
    double saved = x[i], h = 1e-6 * std::max(1.0, std::fabs(saved));
    x[i] = saved + h;
    double plus = w.forward(x.data());
    x[i] = saved - h;
    double minus = w.forward(x.data());
    x[i] = saved;
    g[i] = (plus - minus) / (2 * h);
  }
}

enum class Method { Forward, Generated, FiniteDifferences, AdolcGradient, AdolcTapeAndGradient };

void run(benchmark::State& state, Workload (*make)(), short tag, Method method) {
  Workload w = make();
  std::vector<double> g(w.x.size());
  if (method == Method::AdolcGradient) tape(w, tag);
  for (auto _ : state) {
    switch (method) {
      case Method::Forward:
        benchmark::DoNotOptimize(w.forward(w.x.data()));
        break;
      case Method::Generated:
        std::fill(g.begin(), g.end(), 0.0);
        w.generated(w.x.data(), g.data());
        break;
      case Method::FiniteDifferences:
        centralDifferences(w, w.x, g.data());
        break;
      case Method::AdolcTapeAndGradient:
        tape(w, tag);
        [[fallthrough]];
      case Method::AdolcGradient:
        gradient(tag, static_cast<int>(w.x.size()), w.x.data(), g.data());
        break;
    }
    benchmark::DoNotOptimize(g.data());
    benchmark::ClobberMemory();
  }
  state.counters["inputs"] = static_cast<double>(w.x.size());
}

// Before timing: the generated gradient must match ADOL-C's to rounding.
bool agree(Workload (*make)(), short tag, const char* name) {
  Workload w = make();
  std::vector<double> mine(w.x.size()), theirs(w.x.size());
  w.generated(w.x.data(), mine.data());
  tape(w, tag);
  gradient(tag, static_cast<int>(w.x.size()), w.x.data(), theirs.data());
  double worst = 0;
  for (size_t i = 0; i < mine.size(); ++i)
    worst =
        std::max(worst, std::fabs(mine[i] - theirs[i]) / std::max({std::fabs(mine[i]), std::fabs(theirs[i]), 1e-8}));
  std::printf("%-14s generated vs ADOL-C gradient: max rel. difference %.1e\n", name, worst);
  return worst < 1e-9;
}

#define WORKLOAD(name, make, tag)                                                                  \
  BENCHMARK_CAPTURE(run, name / forward, make, tag, Method::Forward);                              \
  BENCHMARK_CAPTURE(run, name / adjoint_grad, make, tag, Method::Generated);                       \
  BENCHMARK_CAPTURE(run, name / adolc_gradient, make, tag, Method::AdolcGradient);                 \
  BENCHMARK_CAPTURE(run, name / adolc_tape_and_gradient, make, tag, Method::AdolcTapeAndGradient); \
  BENCHMARK_CAPTURE(run, name / central_differences, make, tag, Method::FiniteDifferences)

WORKLOAD(rosenbrock, rosenbrockWorkload, 1);
WORKLOAD(lennard_jones, ljWorkload, 2);
WORKLOAD(mlp_loss, mlpWorkload, 3);

}  // namespace

int main(int argc, char** argv) {
  bool ok = agree(rosenbrockWorkload, 1, "rosenbrock") & agree(ljWorkload, 2, "lennard_jones") &
            agree(mlpWorkload, 3, "mlp_loss");
  if (!ok) return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
