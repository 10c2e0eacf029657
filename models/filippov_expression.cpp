#include "models/filippov_expression.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/expression_json.h"

namespace saltus::models {

const char* const kFilippovExpressionHelp = R"(Your own Filippov system (instead of "model"):
  states         ["x", "v", ...]
  parameters     {name: number}
  filippov       {h, field, mu, stick_bound}: the switching function h(x) (the surface h = 0), the
                 field f(x, lambda) affine in lambda ({state: expression} or a list; it may use
                 lambda), the bound |lambda| <= mu (a number, default 1) and the static bound
                 stick_bound >= mu that holds a sliding orbit on h = 0 (an expression of the
                 parameters, e.g. "mu_s/mu_k", or a number; default mu; its parameters are decided
                 on as numbers). h, the field and the definitions may use the time t (a forced
                 system: give "forcing_period", e.g. "2*pi/w", for its periodic orbits).
                 Modes: "F+" (h > 0, f(x, +mu)), "F-" (h < 0, f(x, -mu)), "sliding", "escaping"
                 (models/filippov_hybrid.h), or your own names ("mode_names": [4 names]); without
                 "mode" the start mode follows from the state. The same file serves `saltus filippov
                 twofold | futures | continue` with "guess", "futures" and "continuation" (their --help).
  definitions    {name: expression} in order: intermediate quantities of the states and parameters.)";

namespace {

using namespace expression_json;

}  // namespace

std::vector<std::string> FilippovSpec::names() const {
  std::vector<std::string> out = states;
  out.insert(out.end(), parameters.begin(), parameters.end());
  out.push_back("lambda");
  out.push_back("t");
  return out;
}

std::shared_ptr<flow::AutoDiffHybrid<filippov::FilippovFlow<ExpressionFilippov>>> make_expression_filippov(
    const nlohmann::ordered_json& run, const Vector& probe) {
  auto spec = std::make_shared<FilippovSpec>();
  Names seen;
  spec->states = list_of_names(run.contains("states") ? run["states"] : Json(), "states", &seen);
  std::vector<double> values;
  parameters(run, &seen, &spec->parameters, &values);
  seen.add("lambda", "parameters (lambda is the switching force)");
  spec->docs.assign(spec->parameters.size(), "run-file parameter");
  spec->decided.assign(spec->parameters.size(), false);
  const int n = static_cast<int>(spec->states.size());
  const int lambda = n + static_cast<int>(spec->parameters.size());
  auto names = spec->names();
  spec->definitions = definitions(run, &names, &seen);
  const int time = lambda + 1;
  std::vector<bool> flags(time + 1, false);
  flags[lambda] = true;
  const auto on_lambda = spec->definitions.depends(flags);
  for (std::size_t i = 0; i < spec->definitions.names.size(); ++i)
    if (on_lambda[time + 1 + i])
      bad("definitions." + spec->definitions.names[i], "uses lambda: definitions are functions of x and p");
  std::fill(flags.begin(), flags.end(), false);
  std::fill(flags.begin(), flags.begin() + n, true);
  const auto on_state = spec->definitions.depends(flags);
  std::fill(flags.begin(), flags.end(), false);
  flags[time] = true;
  const auto on_time = spec->definitions.depends(flags);

  const Json& f = run["filippov"];
  if (!f.is_object()) bad("filippov", "must be {h, field, mu, stick_bound}");
  only(f, {"h", "field", "mu", "stick_bound", "mode_names"}, "filippov");
  if (!f.contains("h")) bad("filippov.h", "is missing: the switching function h(x)");
  spec->h = expression(f["h"], names, "filippov.h");
  if (reads(spec->h, on_lambda))
    bad("filippov.h", "'" + spec->h.text() + "' uses lambda: h depends on the state only");
  if (!reads(spec->h, on_state))
    bad("filippov.h", "'" + spec->h.text() + "' does not depend on the state: it switches nothing");
  if (!f.contains("field")) bad("filippov.field", "is missing: f(x, lambda), one per state");
  for (auto& e : per_name(f["field"], spec->states, names, true, "filippov.field")) spec->field.push_back(*e);
  spec->forced = reads(spec->h, on_time);
  for (const Expression& e : spec->field) spec->forced = spec->forced || reads(e, on_time);
  if (f.contains("mu")) {
    if (!f["mu"].is_number() || !(f["mu"].get<double>() > 0) || !std::isfinite(f["mu"].get<double>()))
      bad("filippov.mu", "must be a positive number (the bound of |lambda|)");
    spec->mu = f["mu"].get<double>();
  }
  if (f.contains("stick_bound")) {
    spec->stick = expression(f["stick_bound"], names, "filippov.stick_bound");
    for (int i : spec->stick->used_variables()) {
      if (i < n || i >= lambda)
        bad("filippov.stick_bound", "'" + spec->stick->text() +
                                        "' may use the parameters only (not the "
                                        "states, lambda or t)");
      spec->decided[i - n] = true;
      spec->docs[i - n] = "in the stick bound (decided on as a number)";
    }
  }

  ExpressionFilippov model{spec, {}, values, spec->mu};
  model.p.assign(values.begin(), values.end());
  // Affine in lambda: the defect of f(x, +-mu) from f(x, 0) + lambda f_lambda
  // at the probe and around it (a field like lambda^2 fails here). Without a
  // probe (no initial state), around x = (0.5, ..., 0.5), skipping points
  // where the field is not finite (a log(x) there says nothing about lambda).
  {
    const bool given = probe.size() == n;
    const Vector base = given ? probe : Vector::Constant(n, 0.5);
    for (int k = 0; k < 4; ++k) {
      Vector x = base;
      if (k > 0) x += Vector::Constant(n, 0.1 * k).cwiseProduct(Vector::Ones(n) + base.cwiseAbs());
      const double defect = filippov::affine_defect(model, x);
      if (!given && !std::isfinite(defect)) continue;
      if (!(defect < 1e-8))
        bad("filippov.field", "f(x, lambda) is not affine in lambda (defect " + std::to_string(defect) +
                                  " at x = " + filippov::detail::format_point(x) +
                                  "): write it as f0(x) + lambda g(x)");
    }
  }
  filippov::FlowOptions options;
  if (f.contains("mode_names")) {
    const Json& m = f["mode_names"];
    if (!m.is_array() || m.size() != 4)
      bad("filippov.mode_names", "must name the four modes: [h > 0, h < 0, sliding, escaping]");
    for (int i = 0; i < 4; ++i)
      options.mode_names[i] = text(m[i], "filippov.mode_names[" + std::to_string(i) + "]");
  }
  return filippov::make_filippov_flow(std::move(model), options);
}

}  // namespace saltus::models
