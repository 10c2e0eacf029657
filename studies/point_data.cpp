// What a study knows about the points of its results: multipliers,
// stability and the summary (studies/study.h).

#include <cmath>

#include "continuation/eigenvalues.h"
#include "continuation/periodic/find_orbit.h"
#include "studies/study.h"

namespace saltus::studies {

namespace {

Eigen::VectorXcd multipliers_of(const periodic::ShootingSystem& shooting, const Branch& branch,
                                const Vector& y, std::complex<double>* trivial,
                                const Vector& given = Vector()) {
  // On the cut the point was computed on (the cut moves along a branch: ShootingSystem::recut).
  const Vector u = given.size() ? given : u_of(branch, y);
  for (const auto& p : branch.points)
    if (p.y == y && std::isfinite(p.cut) && p.cut != shooting.cut(u))
      return multipliers_of(*shooting.at_cut(p.cut, u), Branch(), y, trivial, u);
  const Matrix M = shooting.monodromy(u);
  std::complex<double> ignored;
  if (shooting.options().autonomous) return periodic::nontrivial_multipliers(M, trivial ? trivial : &ignored);
  return periodic::floquet_multipliers(M);
}

}  // namespace

Eigen::VectorXcd multipliers(const BranchResult& result, const Vector& y, std::complex<double>* trivial) {
  if (!result.shooting)
    throw StudyError("'" + result.name + "' is not a branch of orbits: it has no multipliers");
  return multipliers_of(*result.shooting, result.branch, y, trivial);
}

std::optional<bool> stable_at(const BranchResult& result, const BranchPoint& point) {
  if (!result.shooting) {
    if (point.eigenvalues.size() == 0) return std::nullopt;
    return unstable_count(point.eigenvalues) == 0;
  }
  try {
    const Eigen::VectorXcd mu = multipliers(result, point.y);
    return mu.size() == 0 || std::abs(mu[0]) < 1.0;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Json point_data(const BranchResult& result, const SpecialPoint& point) {
  Json s = point.data;
  if (!result.shooting) return s;
  // At the full accuracy (ShootingSystem::refined_shooting), not the stepping one.
  const auto refined = result.shooting->refined_shooting();
  const periodic::ShootingSystem& shooting = refined ? *refined : *result.shooting;
  s["period"] = shooting.period(u_of(result.branch, point.y));
  try {
    std::complex<double> trivial;
    const Eigen::VectorXcd mu = multipliers_of(shooting, result.branch, point.y, &trivial);
    auto& list = s["multipliers"] = Json::array();
    for (const auto& m : mu) list.push_back({m.real(), m.imag()});
    if (shooting.options().autonomous) s["trivial_multiplier"] = {trivial.real(), trivial.imag()};
  } catch (const std::exception& e) {
    s["multipliers_error"] = e.what();
  }
  return s;
}

Json summary(const BranchResult& result) {
  Json b = {{"name", result.name}, {"file", result.name + ".csv"}};
  b.update(result.branch.summary());
  std::size_t k = 0;
  for (auto& s : b["special_points"]) {
    if (result.shooting) s.update(point_data(result, result.branch.special_points[k]));
    ++k;
  }
  return b;
}

}  // namespace saltus::studies
