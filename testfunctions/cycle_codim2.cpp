#include "testfunctions/cycle_codim2.h"

#include <cmath>
#include <stdexcept>

#include "continuation/branch.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/ns_curve.h"
#include "testfunctions/cycle_normal_form.h"
#include "testfunctions/grazing_codim2.h"

namespace saltus {

std::shared_ptr<const CycleCurvePoints::At> CycleCurvePoints::at(const PointContext& point) const {
  const System* system = &point.problem.system();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Entry& e : recent_)
      if (e.system == system && e.y.size() == point.y.size() && e.y == point.y) return e.at;
  }
  // Computed outside the lock: two threads at one new point may both
  // compute it, and both results are the same.
  const Vector u = point.problem.u(point.y);
  auto at = std::make_shared<At>();
  const periodic::ShootingSystem* shooting = nullptr;
  if (const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(system)) {
    shooting = &ns->shooting();
    at->monodromy = shooting->monodromy(ns->shooting_point(u));
  } else if (const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(system)) {
    shooting = &cycle->shooting();
    at->monodromy = shooting->monodromy(u);
  } else {
    throw std::logic_error("a codimension-2 test of periodic orbits on a system that is no cycle curve");
  }
  at->multipliers = shooting->options().autonomous ? periodic::nontrivial_multipliers(at->monodromy)
                                                   : periodic::floquet_multipliers(at->monodromy);
  std::lock_guard<std::mutex> lock(mutex_);
  recent_.push_front({system, point.y, at});
  if (recent_.size() > kKept) recent_.pop_back();
  return at;
}

void add_multipliers(const CycleCurvePoints::At& at, SpecialPoint* special) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (int i = 0; i < at.multipliers.size(); ++i)
    list.push_back({at.multipliers[i].real(), at.multipliers[i].imag()});
  special->data["multipliers"] = list;
}

namespace {

const periodic::NeimarkSackerCurveSystem& ns_curve(const PointContext& point, const std::string& type) {
  const auto* ns = dynamic_cast<const periodic::NeimarkSackerCurveSystem*>(&point.problem.system());
  if (!ns) throw std::logic_error("a resonance test (" + type + ") on a curve that is no NS curve");
  return *ns;
}

}  // namespace

double ResonanceTest::value(const PointContext& point) const {
  return point.problem.u(point.y)[ns_curve(point, type_).kappa_index()] - kappa_;
}

bool ResonanceTest::describe(const PointContext& point, SpecialPoint* special) const {
  special->data["kappa"] = point.problem.u(point.y)[ns_curve(point, type_).kappa_index()];
  add_multipliers(*points_->at(point), special);
  return true;
}

double SecondMultiplierTest::value(const PointContext& point) const {
  const auto* cycle = dynamic_cast<const periodic::CycleCurveSystem*>(&point.problem.system());
  if (!cycle)
    throw std::logic_error("a second-multiplier test (" + type_ + ") on a curve that is no LPC or PD");
  const double critical = cycle->kind() == periodic::CycleBifurcation::kFold ? 1.0 : -1.0;
  const Eigen::VectorXcd& mu = points_->at(point)->multipliers;
  int deflated = 0;
  for (int k = 1; k < mu.size(); ++k)
    if (std::abs(mu[k] - critical) < std::abs(mu[deflated] - critical)) deflated = k;
  std::complex<double> product = 1.0;
  for (int k = 0; k < mu.size(); ++k)
    if (k != deflated) product *= mu[k] - target_;
  return product.real();
}

bool SecondMultiplierTest::describe(const PointContext& point, SpecialPoint* special) const {
  add_multipliers(*points_->at(point), special);
  return true;
}

TestFunctions cycle_curve_tests(const std::string& kind) {
  const auto points = std::make_shared<CycleCurvePoints>();
  if (kind == "NS")
    return {std::make_shared<ResonanceTest>("R1", 1.0, points),
            std::make_shared<ResonanceTest>("R2", -1.0, points),
            std::make_shared<ResonanceTest>("R3", -0.5, points),
            std::make_shared<ResonanceTest>("R4", 0.0, points)};
  if (kind == "LPC")
    return {std::make_shared<SecondMultiplierTest>("R1", 1.0, points),
            std::make_shared<SecondMultiplierTest>("LPPD", -1.0, points),
            std::make_shared<CycleNormalFormTest>(periodic::CycleBifurcation::kFold, points)};
  if (kind == "PD")
    return {std::make_shared<SecondMultiplierTest>("R2", -1.0, points),
            std::make_shared<SecondMultiplierTest>("LPPD", 1.0, points),
            std::make_shared<CycleNormalFormTest>(periodic::CycleBifurcation::kPeriodDoubling, points)};
  if (kind == "GR") return {std::make_shared<GrazingCodim2Test>()};
  return {};
}

}  // namespace saltus
