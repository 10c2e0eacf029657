// The key table of the Filippov run file (`saltus filippov twofold`,
// `futures`, `map`, `continue`; studies/filippov_study.cpp reads the system
// and the guess, studies/two_fold_study.cpp the "futures", "map" and
// "continuation" objects). Defaults come from the option structs
// (analyses/two_fold/futures.h, map.h), written once; the ranges are the
// ones their check() enforces, held together by tests/studies/option_tables.test.cpp.

#include <sstream>

#include "analyses/two_fold/futures.h"
#include "analyses/two_fold/map.h"
#include "continuation/worker_threads.h"
#include "models/filippov_expression.h"
#include "studies/option_tables.h"

namespace saltus::studies {

namespace {

std::string text(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

KeyTable filippov_keys() {
  const FuturesOptions f;
  const TwoFoldMapOptions m;
  KeyTable t = {
      {"name", "string", "file name", "letters, digits, _ - .", "the run's name (and its output folder's)"},
      {"description", "string", "", "", "free text"},
      {"model", "string", "", "one of: wheel_turntable",
       "the built-in wheel on a turntable (Szalai & Jeffrey (1)-(7)); leave it out for your own system"},
      {"states", "[string]", "required without model", "", "your own system's state names"},
      {"parameters", "{name: number}", "", "",
       "the wheel's d, m, c1, c2, beta, r0, omega0, mu, gamma, kappa, k2 (Sec. V's constants), or your "
       "own system's"},
      {"definitions", "{name: expression}", "", "", "your own system's named expressions (below)"},
      {"filippov", "object", "required without model", "", "your own system's switching surface and fields (below)"},
      {"two_fold_at", "object", "", "", "the wheel: kappa and k2 from (10)-(11) put a two-fold at (r*, omega*)"},
      {"two_fold_at.r", "number", "required", "", "r*"},
      {"two_fold_at.omega", "number", "required", "", "omega*"},
      {"tyre", "string", "\"stretched_string\"", "one of: stretched_string, sticking",
       "the wheel's tyre: (6)-(7), or the surface values"},
      {"guess", "{state: number}", "", "every state",
       "the Newton start of the two-fold (twofold, futures, continue); a two-fold needs 3 or more states"},
      {"plot", "object", "", "",
       "the futures figure's axes (default: the first two states other than the one solved for on Sigma; "
       "the wheel's r and omega)"},
      {"plot.x", "string", "", "a state", "its horizontal axis"},
      {"plot.y", "string", "", "a state", "its vertical axis"},
      {"map", "object", "", "", "`filippov map` (the wheel; Fig. 4): kappa and k2 designed at each (r*, omega*)"},
      {"map.r", "[number, number]", "[" + text(m.r_min) + ", " + text(m.r_max) + "]", "finite, min < max",
       "the grid's r*"},
      {"map.omega", "[number, number]", "[" + text(m.omega_min) + ", " + text(m.omega_max) + "]",
       "finite, min < max", "the grid's omega*"},
      {"map.resolution", "[integer, integer]", "[" + text(m.r_steps) + ", " + text(m.omega_steps) + "]",
       ">= 2 each, at most 25e6 points", "grid points in r* and omega*"},
      number_row("map.threads", "integer", text(m.threads), between(0, kMaxThreads), "worker threads (0: all cores)"),
      number_row("map.guess_offset", "number", text(m.guess_offset), between(0, 0.5, false, true),
                 "Newton starts at x* (1 + offset), componentwise"),
      {"futures", "object", "", "", "`filippov futures` (Fig. 5): the orbits through a case-1 two-fold"},
      number_row("futures.samples", "integer", text(f.samples), between(1, 100000), "futures drawn"),
      number_row("futures.approach_samples", "integer", text(f.approach_samples), between(1, 100000),
                 "sliding starts across the sector"),
      number_row("futures.approach_radius", "number", text(f.approach_radius), above(0),
                 "their distance from x* (state units; above arrival_distance)"),
      number_row("futures.arrival_distance", "number", text(f.arrival_distance), above(0),
                 "|x - x*| that counts as arrived"),
      number_row("futures.approach_time", "number", text(f.approach_time), above(0), "an approach gives up after this"),
      number_row("futures.escape_radius", "number", text(f.escape_radius), above(0),
                 "distance of the escaping starts from x*"),
      number_row("futures.max_liftoff_time", "number", text(f.max_liftoff_time), at_least(0),
                 "lift-off within this time"),
      number_row("futures.simulate_time", "number", text(f.simulate_time), above(0),
                 "each future is simulated this long after lift-off"),
      number_row("futures.max_step", "number", text(f.max_step), above(0), "the step bound (time units)"),
      {"futures.barrier", "expression", "", "",
       "your own system: a function of the states whose zero on Sigma the model does not resolve (a future "
       "reaching it stops; the wheel's is its rolling velocity g, (5))"},
      {"continuation", "object", "", "", "`filippov continue`: the two-fold followed in one parameter (3 states)"},
      {"continuation.parameter", "string", "\"k2\"", "a parameter",
       "the wheel's: d, m, c1, c2, beta, r0, omega0, gamma, kappa or k2; your own: any"},
      {"continuation.bounds", "{name: [min, max]}", "", "the states and the parameter",
       "the curve ends where one leaves (max_points: each way)"},
      {"continuation.*", "", "", "", "any continuation option (listed below)",
       option_keys(continuation_option_table())},
  };
  // The hybrid run file's keys may stand beside these (one file for both).
  const std::pair<const char*, const char*> hybrid[] = {
      {"initial", "{state: number}"}, {"mode", "string"},        {"time", "[number, number]"},
      {"transient", "number"},        {"simulation", "object"},  {"section", "object"},
      {"lyapunov", "object"},         {"sweep", "object"},       {"periodic", "object"},
      {"forcing_period", "expression"}, {"angles", "[string]"}};
  for (const auto& [key, type] : hybrid)
    t.push_back({key, type, "", "",
                 "`saltus simulate | periodic`'s key (the hybrid run file's; its reader checks it): ignored here"});
  return t;
}

}  // namespace

const RunFileKind& filippov_run_file() {
  static const RunFileKind kind = {
      "Run file: filippov twofold, futures, map, continue",
      "A Filippov system, the built-in wheel on a turntable (Szalai & Jeffrey) or your own, and its two-folds "
      "(Szalai & Jeffrey): located from a guess and classified (twofold), the orbits through a case-1 "
      "two-fold (futures), the classification over a grid of designed two-folds (map, the wheel only), and "
      "the two-fold followed in one parameter (continue). A forced system (t in h or a field) is refused "
      "here: its orbits are `saltus periodic`'s. Output folder: twofold prints its result (--json for JSON); "
      "futures: approach.csv, futures.csv, regions.csv, futures.json, figures; map: map.csv, map.json, "
      "figures; continue: twofold_branch.csv, twofold_branch.json, figures.",
      filippov_keys(),
      "Continuation options (continuation.*)",
      option_rows(continuation_option_table(), ""),
      models::kFilippovExpressionHelp};
  return kind;
}

}  // namespace saltus::studies
