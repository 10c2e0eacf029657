// The key table of `saltus continue`'s run file (studies/run_file.cpp reads
// it): equilibria and periodic orbits of F(x, p) = 0 or x' = f(x, p, t), the
// first branch and its follow-ups.

#include "studies/option_tables.h"

namespace saltus::studies {

const OptionTable<periodic::OrbitGuessOptions>& orbit_guess_option_table() {
  using O = periodic::OrbitGuessOptions;
  static const OptionTable<O> table = {
      {"transient", &O::transient, "time simulated from start before the orbit's point is taken",
       at_least(0)},
      {"max_period", &O::max_period, "the first return is looked for within this time", above(0)},
      {"return_tolerance", &O::return_tolerance,
       "a return within this fraction of the orbit's extent closes it", between(0, 1, true, true)},
  };
  return table;
}

const OptionTable<periodic::ShootingOptions>& shooting_option_table() {
  using O = periodic::ShootingOptions;
  static const OptionTable<O> table = {
      {"t0", &O::t0, "the time at which the orbit is cut"},
      {"stepping_tolerance", &O::stepping_tolerance,
       "integration tolerance between special points, looser than simulation's (0: simulation's)",
       between(0, 1, false, true)},
  };
  return table;
}

const OptionTable<FollowUp>& follow_up_option_table() {
  using O = FollowUp;
  static const OptionTable<O> table = {
      {"from", &O::from, "starts from the n-th such point of the first branch", at_least(1)},
  };
  return table;
}

const OptionTable<HopfCycles>& hopf_cycles_option_table() {
  using O = HopfCycles;
  static const OptionTable<O> table = {
      {"from", &O::from, "starts from the n-th HB of the first branch", at_least(1)},
      {"amplitude", &O::amplitude, "the first cycle's largest excursion from the equilibrium", above(0)},
  };
  return table;
}

namespace {

void append(KeyTable* table, const KeyTable& rows) { table->insert(table->end(), rows.begin(), rows.end()); }

// "prefix.*": every continuation key (bounds too), over the first branch's values.
KeyRow continuation_wildcard(const std::string& prefix, const std::string& note = "") {
  return {prefix + ".*",      "", "the branch's", "", "any continuation.* option and bounds" + note,
          continuation_keys()};
}

KeyTable follow_up_rows(const std::string& key, const std::string& from, bool parameters) {
  KeyTable rows = option_rows(follow_up_option_table(), key + ".");
  rows[0].meaning = "starts from the n-th " + from + " of the first branch";
  if (parameters)
    rows.push_back({key + ".parameters", "[string]", "required", "two parameters",
                    "the curve's two parameters, the first the branch's"});
  return rows;
}

KeyTable continue_keys() {
  KeyTable t = {
      {"name", "string", "file name", "letters, digits, _ - .",
       "the run's name (and its output folder's, out/<name>)"},
      {"description", "string", "", "", "free text"},
      {"unknowns", "[string]", "required", "identifiers",
       "the names of the unknowns x (or give a model or coordinates)"},
      {"parameters", "{name: number}", "required", "",
       "every parameter with its start value (order kept); a model's default to 0"},
      {"equations", "[expression]", "required", "one per unknown",
       "F(x, p) = 0 (with periodic: the rates x' = f(x, p, t)); + - * / ^, sin cos tan asin acos atan "
       "sinh cosh tanh exp log sqrt abs atan2 pow min max, pi e"},
      {"start", "{name: number}", "required", "",
       "every unknown's start (a guess: corrected); \"x*\" gives every unknown beginning with x"},
      {"model", "string", "", "one of: bratu, brusselator_1d, cusp, pitchfork, triple_pendulum, lorenz",
       "a built-in system instead of unknowns and equations (lorenz: with periodic; triple_pendulum: "
       "Awrejcewicz & Kudra's, its equilibria)"},
      {"model_options", "object", "", "", "options of the built-in model"},
      number_row("model_options.n", "integer", "bratu 100, brusselator_1d 500", at_least(1),
                 "interior grid points (per species); brusselator_1d: at least 2"),
      {"coordinates", "[string]", "", "",
       "your own mechanical system M(q) q'' = f(q, q', p), as in a hybrid run file (hybrid table): "
       "unknowns q and <q>_dot, the equilibria without contact"},
      {"mass", "[expression] | [[expression]]", "", "", "M(q), with coordinates"},
      {"forces", "object | [expression]", "", "", "f(q, q', p), with coordinates"},
      {"constraints", "[object]", "", "", "unilateral constraints h(q) >= 0, with coordinates"},
      {"definitions", "{name: expression}", "", "", "named subexpressions, with coordinates"},
      {"stick_velocity", "number", "1e-6", "", "with coordinates, as in a hybrid run file"},
      {"continuation", "object", "required", "", "the first branch"},
      {"continuation.parameter", "string", "required", "a parameter",
       "the continuation parameter (or \"parameters\": [one name])"},
      {"continuation.parameters", "[string]", "", "one parameter", "the same, as a list of one"},
      {"continuation.detect", "[string]", "all", "one of: LP, BP, HB; periodic: LPC, PD, NS",
       "the special points located (HB with equilibria)"},
      {"continuation.bounds", "{name: [min, max]}", "", "min < max",
       "the branch ends (\"EP\") where a component leaves; null for an open side"},
  };
  append(&t, option_rows(continuation_option_table(), "continuation."));
  append(&t, {
                 {"events", "[object]", "", "", "user test functions: a \"UZ\" point where one changes sign"},
                 {"events[].name", "string", "the expression", "", "the point's label"},
                 {"events[].expression", "expression", "required", "", "of unknowns and parameters"},
                 {"events[].stop", "boolean", "false", "", "the branch ends at the point"},
                 {"fold_curve", "object", "", "",
                  "the fold curve from an LP; cusps (CP) on it, with equilibria BT and ZH"},
             });
  append(&t, follow_up_rows("fold_curve", "LP", true));
  t.push_back(continuation_wildcard("fold_curve", " (\"direction\": that of p1)"));
  t.push_back({"hopf_curve", "object", "", "",
               "with equilibria: the Hopf curve from an HB (or a BT); BT, ZH, HH and GH (with l2) on it"});
  append(&t, follow_up_rows("hopf_curve", "HB", true));
  t.push_back(number_row("hopf_curve.from_bt", "integer", "", at_least(1),
                         "instead of from: the n-th BT of the fold curve in the same parameters"));
  t.push_back(continuation_wildcard("hopf_curve", " (\"direction\": that of p1)"));
  t.push_back({"switch_branch", "object", "", "", "the crossing branch at a BP"});
  append(&t, follow_up_rows("switch_branch", "BP", false));
  t.push_back(continuation_wildcard("switch_branch"));
  append(&t,
         {
             {"plot", "object", "", "", "the axes of branch.png"},
             {"plot.x", "string", "the parameter", "a component", "the horizontal axis"},
             {"plot.y", "string", "x1 | max | T", "a component, max or norm",
              "the vertical axis; max: max |x_i|, norm: |x|_2 / sqrt(n); default the unknown when n = 1, "
              "else max, and T for autonomous orbits"},
             {"equilibria", "boolean | object", "false", "",
              "the equations are x' = F: eigenvalues, stability and Hopf points (HB, with l1 and "
              "criticality)"},
             number_row("equilibria.count", "integer", "all", at_least(1),
                        "large sparse systems: the count eigenvalues of smallest modulus (at most n - 2)"),
             {"hopf_cycles", "object", "", "",
              "with equilibria: the cycles born at an HB, by shooting (branch \"cycles\": LPC, PD, NS)"},
         });
  append(&t, option_rows(hopf_cycles_option_table(), "hopf_cycles."));
  append(&t, {
                 {"hopf_cycles.simulation", "object", "", "", "simulation options"},
                 {"hopf_cycles.simulation.*", "", "periodic's", "", "any periodic.simulation.* option",
                  option_keys(simulation_option_table())},
                 {"hopf_cycles.phase", "[string]", "first two", "two unknowns", "the orbits figure's axes"},
                 {"hopf_cycles.events", "[object]", "", "",
                  "as events, on the maximum over the orbit (\"v - v_b + 0.005\": where sticking starts)"},
                 {"hopf_cycles.events[].*",
                  "",
                  "",
                  "",
                  "name, expression, stop as in events[]",
                  {"name", "expression", "stop"}},
             });
  t.push_back(continuation_wildcard("hopf_cycles", " (ds 0.01; bounds may name T)"));
  append(&t, {
                 {"periodic", "object", "", "",
                  "periodic orbits by shooting instead of equilibria: the equations are x' = f(x, p, t) "
                  "(or model lorenz), start the orbit's guess at t0; the state has T when autonomous"},
                 number_row("periodic.period", "number", "required", above(0),
                            "autonomous: the period's guess; forced: the period (not with from_simulation)"),
                 {"periodic.autonomous", "boolean", "t unused", "",
                  "the period is unknown, fixed by a moving Poincare plane"},
             });
  append(&t, option_rows(shooting_option_table(), "periodic."));
  t.push_back({"periodic.simulation", "object", "", "", "the simulation options"});
  append(&t, option_rows(simulation_option_table(), "periodic.simulation."));
  t.push_back({"periodic.from_simulation", "object", "", "",
               "the guess from a simulation from start: the first return near the transient's end"});
  append(&t, option_rows(orbit_guess_option_table(), "periodic.from_simulation."));
  append(&t, {
                 {"periodic.period_doubling", "object", "", "",
                  "switch onto the period-doubled branch at the first PD (branches doubled1, ...)"},
                 number_row("periodic.period_doubling.levels", "integer", "1", between(1, 20),
                            "how many times, each from the doubled branch's first PD"),
                 continuation_wildcard("periodic.period_doubling"),
                 {"periodic.phase", "[string]", "first two", "two unknowns", "the orbits figure's axes"},
             });
  return t;
}

}  // namespace

const RunFileKind& continue_run_file() {
  static const RunFileKind kind = {
      "Run file: continue",
      "A branch of F(x, p) = 0 (or of the periodic orbits of x' = f(x, p, t)) in one parameter, its special "
      "points and the curves and branches that start from them.\n\n"
      "Models: bratu (model_options.n), brusselator_1d (reaction-diffusion, n interior points per species; "
      "parameters a, b, d1, d2), cusp, pitchfork; or a mechanical system M(q) q'' = f(q, q', p): "
      "triple_pendulum (Awrejcewicz & Kudra) or your own with coordinates, mass, forces (and definitions, "
      "constraints) as in a hybrid run file (`saltus simulate --help`). Its unknowns are the coordinates and "
      "their velocities <q>_dot (start: default 0), its parameters those the model carries (not a "
      "restitution); the equilibria are those of the mode without contact, with \"equilibria\": true their "
      "stability and Hopf points (the eigenvalues solve det(lambda^2 M - lambda f_q' - f_q) = 0).\n\n"
      "Equilibria: every point carries the eigenvalues of F_x (branch.csv: \"unstable\", the count with "
      "positive real part, then re_k, im_k, rightmost first; the figure draws stable points filled, unstable "
      "ones open), and Hopf points HB are located with their frequency, l1 (the first Lyapunov coefficient, "
      "Kuznetsov's normalization <q, q> = <p, q> = 1, as MatCont) and criticality (supercritical l1 < 0, "
      "subcritical l1 > 0, degenerate |l1| <= 1e-8); a neutral saddle is not an HB; a Hopf pair beside a "
      "zero eigenvalue is ZH. equilibria.count: only the k eigenvalues of smallest modulus, by shift-invert "
      "Arnoldi (Spectra) on the engine's LU. On a hopf_curve, BT (Bogdanov-Takens), ZH (zero-Hopf), HH "
      "(double Hopf) and GH (generalized Hopf, l1 = 0, with its l2) are located (minimally augmented with "
      "the critical pair's lambda_a + lambda_b; dense, for small and moderate n); hopf_curve.from_bt starts "
      "into the Hopf side of a BT of the fold curve; with equilibria a fold_curve also locates BT and ZH.\n\n"
      "Periodic orbits: the equations are the rates x' = f(x, p, t) (t: time, for a forced ODE), or model "
      "lorenz (x, y, z; sigma, rho, beta); start is the guess of the orbit's point at t0 (or where "
      "from_simulation's simulation starts, whose first return near the transient's end gives x and the "
      "period). With stepping_tolerance the steps between special points are integrated to it and "
      "simulation's tolerances serve the located points (and their multipliers) only: the branch carries "
      "the accuracy that keeps the corrector on it, and so does from_simulation's guess. The state has T "
      "(the period) when autonomous, usable in bounds, events and plot. hopf_cycles.events are UZ points "
      "where the maximum over the orbit of the expression changes sign (\"v - v_b + 0.005\": where a "
      "friction cycle starts to stick).\n\n"
      "Output folder: branch.csv (and fold_curve.csv, hopf_curve.csv, switched.csv, cycles.csv, "
      "doubled<k>.csv), summary.json, branch.png/.svg (stable points filled, unstable open) with the "
      "gnuplot scripts that drew them; periodic runs: orbits.png (the orbits at the special points in the "
      "phase plane).",
      continue_keys()};
  return kind;
}

}  // namespace saltus::studies
