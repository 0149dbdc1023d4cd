#pragma once

// Rest length of each spring; the default stiffness when the build does not set one.
constexpr double kRestLength = 0.5;
#ifndef CHAIN_STIFFNESS
#define CHAIN_STIFFNESS 25.0
#endif

// Energy of a chain of n masses on springs in a gravity field; x holds (x, y) per mass and the
// first mass is pinned at the origin.
double energy(const double* x, int n, double gravity);

// Energy of a soft pin that pulls the chain's last mass towards (px, py) (pins.cpp).
double pin_energy(const double* x, int n, double px, double py);
