// Annotations a forward source can use to steer Adjoint. They expand to nothing outside Clang, so
// the same source compiles with g++.
//
//   ADJOINT_NONDIFFERENTIABLE double noise(double t);          // calls are constants
//   double f(double x, ADJOINT_NONDIFFERENTIABLE double scale); // scale gets no adjoint
#pragma once

#if defined(__clang__)
#define ADJOINT_NONDIFFERENTIABLE [[clang::annotate("adjoint::nondifferentiable")]]
#else
#define ADJOINT_NONDIFFERENTIABLE
#endif
