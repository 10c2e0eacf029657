#pragma once
// "UZ" on a branch of periodic orbits: the maximum over one period of a
// scalar function e(z) of the flow's state z (for a ShootingSystem, the
// unknowns and the parameters riding with them) changes sign. With
// e = v - v_b + margin, a self-excited friction cycle says where it starts
// to stick to the belt.
//
// The maximum is taken where de/dt = grad e(z) . f(z) falls through zero,
// located on the dense output like any Poincare section (toms748 to the
// simulation's event tolerance), and at the period's ends: as accurate as
// the orbit itself, not a sampled curve's.

#include <functional>
#include <string>

#include "continuation/test_function.h"

namespace saltus {

class OrbitMaximumTest : public TestFunction {
 public:
  using Function = std::function<double(const Vector& z)>;
  // grad e(z) . dz: the rate of e along the flow when dz = f(z).
  using Rate = std::function<double(const Vector& z, const Vector& dz)>;
  OrbitMaximumTest(std::string name, Function e, Rate rate, bool stop = false)
      : name_(std::move(name)), e_(std::move(e)), rate_(std::move(rate)), stop_(stop) {}
  std::string type() const override { return "UZ"; }
  std::string name() const override { return name_; }
  // Throws std::logic_error on a branch that is not one of orbits (no
  // ShootingSystem), std::runtime_error when the orbit cannot be simulated.
  double value(const PointContext& point) const override;
  bool stops_branch() const override { return stop_; }

 private:
  std::string name_;
  Function e_;
  Rate rate_;
  bool stop_;
};

}  // namespace saltus
