#include "drivers/periodic_curve.h"

#include <iomanip>

#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "models/expression.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// T(p1, p2) of a forced model with both parameters carried, and dT/dp
// exactly (a Jet through the forcing-period expression).
std::function<double(const Vector&, Vector*)> period_of_two(const HybridRun& run, const CurveSpec& curve) {
  std::vector<std::string> names;
  std::vector<double> values;
  int first = -1, second = -1;
  for (const auto& p : run.system->parameters()) {
    if (p.name == curve.first) first = static_cast<int>(names.size());
    if (p.name == curve.second) second = static_cast<int>(names.size());
    names.push_back(p.name);
    values.push_back(p.value);
  }
  const models::Expression period = models::Expression::parse(run.forcing_period_expression, names);
  return [period, values, first, second](const Vector& p, Vector* dT_dp) {
    using J = ceres::Jet<double, 2>;
    std::vector<J> v(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) v[i] = J(values[i]);
    v[first] = J(p[0], 0);
    v[second] = J(p[1], 1);
    const J T = period.evaluate<J>(v.data());
    if (dT_dp) *dT_dp = T.v;
    return T.a;
  };
}

Figure curve_figure(const HybridRun& run, const CurveSpec& cs, const Branch& curve, int i1, int i2) {
  Figure f{run.name + ": grazing curve", cs.first, cs.second, {}, {}};
  Figure::Series line{"GR (grazing)", {}, "linespoints", "pt 7 ps 0.4"};
  for (const auto& p : curve.points) line.points.emplace_back(p.y[i1], p.y[i2]);
  f.series.push_back(line);
  f.labels.push_back({curve.points.front().y[i1], curve.points.front().y[i2], "start"});
  return f;
}

}  // namespace

bool grazing_curve(const HybridRun& run, const ShootingStart& start,
                   const std::vector<GrazingStart>& grazings, const fs::path& dir, Json* summary,
                   std::string* why) {
  const CurveSpec& cs = *run.periodic->curve;
  if (grazings.empty()) {
    *why = "'periodic.curve': the branch has no located grazing (GR) to start the curve from";
    return false;
  }
  const GrazingStart& from = grazings.front();
  const auto hybrid = run.system->with_parameters_in_state({cs.first, cs.second}, run.wrapped_angles);
  periodic::ShootingOptions options = start.system->options();
  if (options.period_of) options.period_of = period_of_two(run, cs);
  const int m = start.system->state_size();
  Vector u(m + 2);
  u << from.y, run.system->parameter(cs.second);
  Vector reference;  // (x, p1, p2) for the phase condition of an autonomous orbit
  if (options.autonomous) {
    reference.resize(m + 1);
    reference << u.head(m - 1), u.tail(2);
  }
  const periodic::ShootingSystem shooting(hybrid, 2, options, reference);
  auto system = std::make_shared<periodic::GrazingSystem>(shooting, from.contact, u);
  const ContinuationProblem problem(system, Vector::Constant(1, u[m + 1]), {cs.second});
  const Branch curve = continue_branch(problem, u, cs.options);
  if (!curve.usable()) {
    *why = "'periodic.curve': the grazing curve could not start: " + curve.message;
    return false;
  }
  write_file_atomically(dir / "curve.csv", [&](std::ostream& o) { curve.write_csv(o); });
  Json c = curve.summary();
  c["kind"] = cs.kind;
  c["parameters"] = {cs.first, cs.second};
  (*summary)["curve"] = c;
  std::string warning;
  draw(curve_figure(run, cs, curve, m, m + 1), dir, "curve", &warning);
  return true;
}

}  // namespace saltus::drivers
