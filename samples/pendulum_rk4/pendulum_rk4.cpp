// A damped pendulum integrated with classical Runge-Kutta; the gradient of the final angle with
// respect to the initial state and the physical parameters (sensitivity analysis).
// SAMPLE: grad final_angle
// SAMPLE: jvp final_angle
// VERIFY: final_angle ints=50
#include <cmath>

static double accel(double theta, double omega, double damping, double g_over_l) {
  return -g_over_l * std::sin(theta) - damping * omega;
}

double final_angle(double theta0, double omega0, double damping, double g_over_l, int steps) {
  double theta = theta0, omega = omega0, h = 0.02;
  for (int s = 0; s < steps; ++s) {
    double k1t = omega;
    double k1w = accel(theta, omega, damping, g_over_l);
    double k2t = omega + 0.5 * h * k1w;
    double k2w = accel(theta + 0.5 * h * k1t, omega + 0.5 * h * k1w, damping, g_over_l);
    double k3t = omega + 0.5 * h * k2w;
    double k3w = accel(theta + 0.5 * h * k2t, omega + 0.5 * h * k2w, damping, g_over_l);
    double k4t = omega + h * k3w;
    double k4w = accel(theta + h * k3t, omega + h * k3w, damping, g_over_l);
    theta += h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
    omega += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
  }
  return theta;
}
