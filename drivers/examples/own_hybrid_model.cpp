// Your own hybrid system in C++, with a parameter, continued and swept with
// no wrapper class: the impact oscillator x'' + 2 zeta x' + x = F cos(w t)
// with a rigid stop at x = d and restitution r (the same system as
// examples/user/impact_oscillator.json). A driver to copy:
//
//   saltus_own_hybrid_model OUTDIR
//
// writes OUTDIR/branch.csv (the period-1 orbit continued in w, LPC/PD/GR
// tested), OUTDIR/sweep.csv (x at the forcing phase 0 after a transient, for
// a range of w) and prints the special points.
//
// The model is a functor templated on the state's scalar T whose parameters
// are fields of scalar P, listed once by a visitor
// (continuation/flow/parameters.h). saltus then gives it names and values,
// changed copies (the sweep) and the shooting form with any parameter
// carried in the state (the continuation), with exact Jacobians by ceres::Jet.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "studies/output.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

using namespace saltus;

template <class P = double>
struct ImpactOscillator {
  P w = P(2.3), zeta = P(0.05), F = P(1.0), d = P(0.1);
  double r = 0.8;  // restitution: a number (next_mode could decide on it), never carried

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("w", self.w, "forcing frequency");
    visit("zeta", self.zeta, "damping ratio");
    visit("F", self.F, "forcing amplitude");
    visit("d", self.d, "position of the stop");
    visit("r", self.r, "restitution");
  }
  template <class Q>
  ImpactOscillator<Q> cast() const {
    return flow::cast_parameters<ImpactOscillator<Q>>(*this);
  }

  int dimension() const { return 2; }
  std::vector<std::string> state_names() const { return {"x", "v"}; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    f[0] = x[1];
    f[1] = -2.0 * zeta * x[1] - x[0] + F * cos(w * t);
  }
  template <class T>
  T guard(int, int, const T&, const T* x) const {
    return d - x[0];  // falls through zero at the stop
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* x, T* x_plus) const {
    x_plus[0] = x[0];
    x_plus[1] = -r * x[1];
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: saltus_own_hybrid_model OUTDIR\n";
    return 1;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto system = flow::make_hybrid(ImpactOscillator<>{});
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = 1e-11;

  // A sweep in w: any parameter by name, each value a changed copy.
  studies::write_file_atomically(dir / "sweep.csv", [&](std::ostream& out) {
    out << "w,x\n";
    for (int i = 0; i <= 40; ++i) {
      const double w = 2.0 + 0.02 * i, T = 2 * M_PI / w;
      const auto at_w = system->with_parameter("w", w);
      const auto tr = flow::simulate(*at_w, 0, 0.0, Vector::Zero(2), 200 * T, simulation);
      if (tr.ok()) out << w << ',' << tr.x_end[0] << '\n';
    }
  });

  // The period-1 orbit continued in w: w rides in the state (exact d/dw),
  // the period follows it (T = 2 pi / w), the cut stays at forcing phase 0.
  const auto carried = system->with_parameters_in_state({"w"});
  periodic::ShootingOptions shooting;
  shooting.simulation = simulation;
  shooting.period_of = [](const Vector& p, Vector* dT_dp) {
    if (dT_dp) *dT_dp = Vector::Constant(1, -2 * M_PI / (p[0] * p[0]));
    return 2 * M_PI / p[0];
  };
  const double w0 = system->parameter("w"), T0 = 2 * M_PI / w0;
  Vector start(3);
  start << 0.0, 0.0, w0;
  const auto warm = flow::simulate(*carried, 0, 0.0, start, 300 * T0, simulation);
  if (!warm.ok()) {
    std::cerr << "transient failed: " << warm.message << '\n';
    return 1;
  }
  auto orbits = std::make_shared<periodic::ShootingSystem>(carried, 1, shooting);
  ContinuationProblem problem(orbits, Vector::Constant(1, w0), {"w"});
  ContinuationOptions options;
  options.direction = +1;
  options.ds = 0.01;
  options.ds_max = 0.05;
  options.max_points = 200;
  options.bounds["w"] = {2.0, 3.0};
  options.event_tolerance = 1e-12;
  const Vector y0 = warm.x_end;  // (x, v, w) at phase 0 after 300 periods
  const Branch branch =
      continue_branch(problem, y0, options,
                      {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                       std::make_shared<GrazingTest>()});
  studies::write_file_atomically(dir / "branch.csv", [&](std::ostream& out) { branch.write_csv(out); });
  std::cout << "branch: " << branch.points.size() << " points, " << branch.message << '\n';
  for (const auto& sp : branch.special_points)
    std::cout << "  " << sp.type << " " << to_string(sp.status) << " at w = " << sp.y[2] << '\n';
  return 0;
}
