// What a study knows about the points of its results: multipliers,
// stability and the summary (studies/study.h).

#include <cmath>

#include "continuation/eigenvalues.h"
#include "continuation/periodic/find_orbit.h"
#include "studies/study.h"

namespace saltus::studies {

namespace {

Eigen::VectorXcd multipliers_of(const periodic::ShootingSystem& shooting, const Branch& branch, const Vector& y,
                                std::complex<double>* trivial, double* unresolved_bound) {
  double ignored_bound = 0.0;
  if (!unresolved_bound) unresolved_bound = &ignored_bound;
  *unresolved_bound = 0.0;
  if (shooting.matrix_free()) {
    // A large system: the leading multipliers by Arnoldi (ShootingSystem::
    // leading_multipliers), the monodromy never formed.
    const Eigen::VectorXcd mu = shooting.leading_multipliers(u_of(branch, y), unresolved_bound);
    std::complex<double> ignored;
    return shooting.options().autonomous ? periodic::without_trivial(mu, trivial ? trivial : &ignored) : mu;
  }
  const Matrix M = shooting.monodromy(u_of(branch, y));
  std::complex<double> ignored;
  if (shooting.options().autonomous) return periodic::nontrivial_multipliers(M, trivial ? trivial : &ignored);
  return periodic::floquet_multipliers(M);
}

// A grazing orbit touches its guard (the true flow's saltation there is
// 1 / 0, or huge by rounding): its multipliers are the smooth side's, those
// of the orbit without the contact, which the GR point carries.
bool grazing_multipliers(const BranchResult& result, const Vector& y, Eigen::VectorXcd* mu) {
  for (const auto& sp : result.branch.special_points)
    if ((sp.type == "GR" || sp.type == "GS" || sp.type == "AS") && sp.y.size() == y.size() && sp.y == y && sp.data.contains("smooth_side_multipliers")) {
      const auto& list = sp.data["smooth_side_multipliers"];
      mu->resize(static_cast<Eigen::Index>(list.size()));
      for (std::size_t i = 0; i < list.size(); ++i)
        (*mu)[static_cast<Eigen::Index>(i)] = {list[i][0].get<double>(), list[i][1].get<double>()};
      return true;
    }
  return false;
}

// The shooting system cut where the point y of branch was (ShootingSystem::recut).
std::shared_ptr<const periodic::ShootingSystem> cut_for(std::shared_ptr<const periodic::ShootingSystem> shooting,
                                                        const Branch& branch, const Vector& y) {
  const Vector u = u_of(branch, y);
  for (const auto& p : branch.points)
    if (p.y.size() == y.size() && p.y == y && std::isfinite(p.cut) && p.cut != shooting->cut(u))
      return shooting->at_cut(p.cut, u);
  return shooting;
}

}  // namespace

std::shared_ptr<const periodic::ShootingSystem> shooting_at(const BranchResult& result, const Vector& y) {
  if (!result.shooting) return nullptr;
  return cut_for(result.shooting, result.branch, y);
}

Eigen::VectorXcd multipliers(const BranchResult& result, const Vector& y, std::complex<double>* trivial,
                             double* unresolved_bound) {
  if (!result.shooting) throw StudyError("'" + result.name + "' is not a branch of orbits: it has no multipliers");
  if (unresolved_bound) *unresolved_bound = 0.0;
  Eigen::VectorXcd mu;
  if (grazing_multipliers(result, y, &mu)) return mu;
  return multipliers_of(*shooting_at(result, y), result.branch, y, trivial, unresolved_bound);
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
  const auto at = shooting_at(result, point.y);
  const auto refined = at->refined_shooting();
  const periodic::ShootingSystem& shooting = refined ? *refined : *at;
  s["period"] = shooting.period(u_of(result.branch, point.y));
  try {
    std::complex<double> trivial;
    Eigen::VectorXcd mu;
    if (grazing_multipliers(result, point.y, &mu)) {
      s["multipliers"] = s["smooth_side_multipliers"];
      return s;
    }
    double bound = 0.0;
    mu = multipliers_of(shooting, result.branch, point.y, &trivial, &bound);
    auto& list = s["multipliers"] = Json::array();
    for (const auto& m : mu) list.push_back({m.real(), m.imag()});
    if (bound > 0.0) s["unresolved_multipliers_within"] = bound;
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
