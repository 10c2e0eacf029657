#include "testfunctions/cycle_codim2.h"

#include <cmath>
#include <stdexcept>

#include "continuation/branch.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/ns_curve.h"

namespace saltus {

namespace {

// The orbit's multipliers at the point of a cycle or NS curve.
Eigen::VectorXcd multipliers_at(const PointContext& point) {
  const Vector u = point.problem.u(point.y);
  const System& system = point.problem.system();
  if (const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(&system))
    return periodic::floquet_multipliers(ns->shooting().monodromy(ns->shooting_point(u)));
  if (const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(&system))
    return periodic::floquet_multipliers(cycle->shooting().monodromy(u));
  throw std::logic_error("a codimension-2 test of periodic orbits on a system that is no cycle curve");
}

void add_multipliers(const PointContext& point, SpecialPoint* special) {
  const Eigen::VectorXcd mu = multipliers_at(point);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int i = 0; i < mu.size(); ++i) list.push_back({mu[i].real(), mu[i].imag()});
  special->data["multipliers"] = list;
}

}  // namespace

double ResonanceTest::value(const PointContext& point) const {
  const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(&point.problem.system());
  if (!ns) throw std::logic_error("a resonance test (" + type_ + ") on a curve that is no NS curve");
  return point.problem.u(point.y)[ns->kappa_index()] - kappa_;
}

bool ResonanceTest::describe(const PointContext& point, SpecialPoint* special) const {
  const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(&point.problem.system());
  const double kappa = point.problem.u(point.y)[ns->kappa_index()];
  special->data["kappa"] = kappa;
  add_multipliers(point, special);
  return true;
}

double SecondMultiplierTest::value(const PointContext& point) const {
  const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(&point.problem.system());
  if (!cycle)
    throw std::logic_error("a second-multiplier test (" + type_ + ") on a curve that is no LPC or PD");
  const double critical = cycle->kind() == periodic::CycleBifurcation::kFold ? 1.0 : -1.0;
  const Eigen::VectorXcd mu = multipliers_at(point);
  int deflated = 0;
  for (int k = 1; k < mu.size(); ++k)
    if (std::abs(mu[k] - critical) < std::abs(mu[deflated] - critical)) deflated = k;
  std::complex<double> product = 1.0;
  for (int k = 0; k < mu.size(); ++k)
    if (k != deflated) product *= mu[k] - target_;
  return product.real();
}

bool SecondMultiplierTest::describe(const PointContext& point, SpecialPoint* special) const {
  add_multipliers(point, special);
  return true;
}

TestFunctions cycle_curve_tests(const std::string& kind) {
  if (kind == "NS")
    return {std::make_shared<ResonanceTest>("R1", 1.0), std::make_shared<ResonanceTest>("R2", -1.0),
            std::make_shared<ResonanceTest>("R3", -0.5), std::make_shared<ResonanceTest>("R4", 0.0)};
  if (kind == "LPC")
    return {std::make_shared<SecondMultiplierTest>("R1", 1.0),
            std::make_shared<SecondMultiplierTest>("LPPD", -1.0)};
  if (kind == "PD")
    return {std::make_shared<SecondMultiplierTest>("R2", -1.0),
            std::make_shared<SecondMultiplierTest>("LPPD", 1.0)};
  return {};
}

}  // namespace saltus
