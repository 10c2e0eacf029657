// The key table of the hybrid run file (`saltus simulate`, `lyapunov`,
// `periodic`, `sweep`, `map`; studies/hybrid_run_file.cpp and
// studies/map_spec.cpp read it): a built-in or own hybrid system, its
// simulation, section, sweep, periodic orbits and two-parameter map. The keys
// inside an own system's description (modes, states, coordinates, ...) are
// read by models/ and documented by its help texts, printed after the table.

#include "continuation/worker_threads.h"
#include "models/filippov_expression.h"
#include "models/hybrid_expression.h"
#include "models/mechanical_expression.h"
#include "models/registry.h"
#include "studies/hybrid_run_file.h"
#include "studies/option_tables.h"

namespace saltus::studies {

const OptionTable<flow::LyapunovOptions>& lyapunov_option_table() {
  using O = flow::LyapunovOptions;
  static const OptionTable<O> table = {
      {"transient", &O::transient, "time integrated from the initial state first, not counted", at_least(0)},
      {"duration", &O::duration, "time over which the exponents are averaged", above(0)},
      {"interval", &O::interval, "re-orthonormalization period (at most duration)", above(0)},
  };
  return table;
}

const OptionTable<SweepSpec>& sweep_option_table() {
  using O = SweepSpec;
  static const OptionTable<O> table = {
      {"steps", &O::steps, "parameter values from `from` to `to`", between(1, kMaxSweepSteps)},
      {"transient", &O::transient, "time integrated at each value before recording", at_least(0)},
      {"record", &O::record, "time over which the section's hits are recorded", above(0)},
      {"threads", &O::threads, "worker threads (0: all cores), each a quasi-static chunk",
       between(0, kMaxThreads)},
  };
  return table;
}

const OptionTable<PeriodicSpec>& hybrid_periodic_option_table() {
  using O = PeriodicSpec;
  static const OptionTable<O> table = {
      {"t0", &O::t0, "where a forced orbit is cut (moved away from events near it)"},
      {"record", &O::record, "autonomous: time over which the section's returns are searched", above(0)},
      {"max_returns", &O::max_returns, "autonomous: returns per period searched", at_least(1)},
      {"return_tolerance", &O::return_tolerance, "a return within this times (1 + |x|) closes the orbit",
       above(0)},
  };
  return table;
}

const OptionTable<MapSpec>& map_option_table() {
  using O = MapSpec;
  static const OptionTable<O> table = {
      {"transient", &O::transient, "time integrated at each point before recording", at_least(0)},
      {"record", &O::record, "time over which the section's hits are recorded", above(0)},
      {"max_period", &O::max_period, "more distinct hits than this: chaotic", between(1, 64)},
      {"tolerance", &O::tolerance, "hits within tolerance (1 + |x|) are one (angles modulo 2 pi)", above(0)},
      {"lyapunov", &O::lyapunov, "also the largest Lyapunov exponent (the run's lyapunov options)"},
      {"threads", &O::threads, "worker threads (0: all cores)", between(0, kMaxThreads)},
  };
  return table;
}

const OptionTable<MapAxis>& map_axis_option_table() {
  using O = MapAxis;
  static const OptionTable<O> table = {
      {"steps", &O::steps, "grid values from `from` to `to` (x.steps * y.steps at most 1e6)",
       between(1, kMaxMapPoints)},
  };
  return table;
}

namespace {

void append(KeyTable* table, const KeyTable& rows) { table->insert(table->end(), rows.begin(), rows.end()); }

KeyTable map_axis_rows(const std::string& axis) {
  const std::string p = "map." + axis;
  KeyTable rows = {
      {p, "object", "required", "", "the " + axis + " axis of the grid"},
      {p + ".parameter", "string | [string]", "required", "parameters",
       "a parameter of the model, or a list set to the same value ([\"c1\", \"c2\"])"},
      {p + ".from", "number", "required", "", "the first value"},
      {p + ".to", "number", "required", "", "the last value"},
  };
  append(&rows, option_rows(map_axis_option_table(), p + "."));
  return rows;
}

KeyTable hybrid_keys() {
  KeyTable t = {
      {"name", "string", "file name", "letters, digits, _ - .", "the run's name (and its output folder's)"},
      {"description", "string", "", "", "free text"},
      {"model", "string", "required", "a built-in model",
       "a built-in model by name (listed below), or leave it out and describe your own system"},
      {"parameters", "{name: number}", "the model's", "", "parameter values over the model's defaults"},
      {"initial", "{name: number}", "required", "every state component", "the initial state"},
      {"mode", "string", "the first", "a mode", "the initial mode (stick_slip: from the initial state)"},
      {"time", "[number, number]", "required", "t1 > t0", "the simulated span [t0, t1]"},
      number_row("transient", "number", "0", at_least(0),
                 "simulate: time integrated from t0 before recording"),
      {"simulation", "object", "", "", "the simulation options"},
  };
  append(&t, option_rows(simulation_option_table(), "simulation."));
  append(&t,
         {
             {"section", "object", "", "", "a Poincare section: the crossings of variable = value upwards"},
             {"section.variable", "string", "required", "a state component", "the crossing variable"},
             {"section.value", "number", "0", "", "the crossing value"},
             {"section.angle", "boolean", "false", "", "crossings of value modulo 2 pi"},
             {"lyapunov", "object", "", "", "`saltus lyapunov` (from the initial state at t0) and map"},
         });
  append(&t, option_rows(lyapunov_option_table(), "lyapunov."));
  append(&t, {
                 {"sweep", "object", "", "",
                  "`saltus sweep`: the section's hits against a parameter, each value starting where the "
                  "previous one ended"},
                 {"sweep.parameter", "string", "required", "a parameter", "the swept parameter"},
                 {"sweep.from", "number", "required", "", "the first value"},
                 {"sweep.to", "number", "required", "", "the last value"},
             });
  append(&t, option_rows(sweep_option_table(), "sweep."));
  append(&t, {
                 {"sweep.plot", "string", "the last", "a state component", "the component drawn"},
                 {"periodic", "object", "", "",
                  "`saltus periodic`: an orbit by shooting with saltation, its multipliers and, with "
                  "parameter, its branch (LPC, PD, NS located; stops at a grazing GR)"},
                 number_row("periodic.period", "number", "forcing period", above(0),
                            "a forced orbit's period (autonomous models: found, leave it out)"),
                 {"periodic.parameter", "string", "", "a parameter",
                  "the continuation parameter (not a restitution or friction coefficient); none: the orbit"},
                 number_row("periodic.transient", "number", "none (autonomous: 100)", at_least(0),
                            "time simulated first; its end is the guess (autonomous: then the returns)"),
             });
  append(&t, option_rows(hybrid_periodic_option_table(), "periodic."));
  append(&t, {
                 {"periodic.diagram", "string", "the run's sweep", "a file",
                  "a sweep.csv of `saltus sweep` to draw the branch over"},
                 {"periodic.grazing", "string | boolean", "\"stop\"", "one of: stop, continue, true, false",
                  "at a grazing, or a sliding bifurcation GS, CS, SS, AS of a Filippov orbit: stop, or continue "
                  "with the new event sequence; false: no test"},
                 {"periodic.curve", "object | [object]", "", "",
                  "two-parameter curves from the branch's first point of a kind (curve.csv, curve.png); "
                  "R1-R4, LPPD, CPC, GPD, GR-PD-LPC, CS-SS-AS on them"},
                 {"periodic.curve.kind", "string", "\"GR\"", "one of: GR, LPC, PD, NS, CS, SS",
                  "grazing, fold, period doubling, Neimark-Sacker, or (Filippov orbits) crossing- or "
                  "switching-sliding"},
                 {"periodic.curve.parameters", "[string, string]", "required", "two parameters",
                  "[first, second], first the branch's; an entry may be a list moved together"},
                 {"periodic.curve.*", "", "the branch's", "",
                  "any continuation option and bounds (the first parameter rides in the orbit's state: "
                  "\"direction\" is that of the second)",
                  continuation_keys()},
                 {"periodic.*", "", "", "", "any continuation option and bounds (listed below)",
                  continuation_keys()},
                 {"plot", "object", "", "", "the phase portrait's axes"},
                 {"plot.x", "string", "the first", "a state component", "the horizontal axis"},
                 {"plot.y", "string", "the middle", "a state component", "the vertical axis"},
                 {"map", "object", "", "",
                  "`saltus map`: a two-parameter map of the attractors' periods (chaotic above max_period, "
                  "escaped, no hits)"},
             });
  append(&t, map_axis_rows("x"));
  append(&t, map_axis_rows("y"));
  append(&t, option_rows(map_option_table(), "map."));
  t.push_back({"map.seed", "string", "\"none\"", "one of: none, rows",
               "rows: each point starts from its x-neighbour's end state"});
  // Your own system's keys: their inner keys are read by models/ (the prose below the table).
  const std::string own = "your own system's (below): ";
  append(&t, {
                 {"states", "[string]", "", "", own + "the state components' names"},
                 {"modes", "{name: object}", "", "", own + "each mode's field and guards, in order"},
                 {"forcing_period", "expression", "", "", own + "of the parameters: a forced system"},
                 {"angles", "[string]", "", "", own + "states that are angles"},
                 {"definitions", "{name: expression}", "", "", own + "intermediate quantities, in order"},
                 {"coordinates", "[string]", "", "", own + "a mechanical system's coordinates q"},
                 {"mass", "[expression] | [[expression]]", "", "", own + "M(q, t)"},
                 {"forces", "object | [expression]", "", "", own + "f(q, q', t) with M q'' = f"},
                 {"constraints", "[object]", "", "", own + "unilateral constraints h(q, t) >= 0"},
                 {"stick_velocity", "number", "1e-6", "", own + "rebound speed below which contact lasts"},
                 {"links", "[object]", "", "", "triple_pendulum: its links (below)"},
                 {"g", "number", "", "", "triple_pendulum: gravity (below)"},
                 {"filippov", "object", "", "", "an own Filippov system: `saltus filippov twofold --help`"},
                 {"guess", "object", "", "", "with filippov: `saltus filippov futures --help`"},
                 {"futures", "object", "", "", "with filippov: `saltus filippov futures --help`"},
                 {"continuation", "object", "", "", "with filippov: `saltus filippov continue --help`"},
             });
  return t;
}

}  // namespace

const RunFileKind& hybrid_run_file() {
  static const RunFileKind kind = {
      "Run file: simulate, lyapunov, periodic, sweep, map",
      "A hybrid system (impacts, friction, contact): built-in or your own; any of its parameters is the "
      "parameter of sweep, periodic and map.\n\n"
      "Periodic orbits: a forced model's orbit goes through the initial guess cut at t0 (period: the "
      "forcing period by default; with transient > 0 the state after it is the guess). An autonomous "
      "model's (the pendulum, stick-slip) period is unknown (phase condition) and its guess comes from a "
      "simulation: the transient, then the returns to the section (without one: the plane through the "
      "transient's end, normal to the field there) over record until one closes the orbit. The cut t0 "
      "moves away from the orbit's events where one nears it (the same orbit cut elsewhere; branch.csv's "
      "t0). A grazing GR is located exactly from either side (a new contact touching the guard or an "
      "impact's normal speed going to zero); \"continue\" goes on through it with the new event sequence, "
      "one impact more or less per period (the events per point in branch.csv). On a Filippov system's "
      "orbits the sliding bifurcations are located and named (analyses/sliding/sliding_bifurcation.h): CS "
      "crossing-sliding and SS switching-sliding (an arrival at the surface meets the boundary of the "
      "sliding region), GS grazing-sliding and AS adding-sliding (a GR "
      "at that boundary, or at a cusp where a slide ends), with the event sequences and multipliers of both "
      "sides in summary.json; \"continue\" goes on through each with the new event sequence (a sliding "
      "segment gained or lost, a crossing turned into a slide, a slide interrupted by a slip; "
      "analyses/sliding/sliding_bifurcation.h). The branch is drawn over "
      "the sweep CSV periodic.diagram, else the run's sweep computed first. A large system (from 256 "
      "states) is shot matrix-free and its multipliers are the 8 of largest modulus by Arnoldi; those "
      "that cluster inside |mu| < 0.9 are bounded rather than resolved (summary.json's "
      "unresolved_multipliers_within: the modulus they lie within).\n\n"
      "Curves: from the branch's first located point of the kind, its curve in the two parameters: GR "
      "grazing, LPC fold, PD period doubling, NS Neimark-Sacker, of forced and autonomous orbits (shooting "
      "plus bordered test functions of the monodromy, an autonomous LPC's of the whole shooting Jacobian in "
      "(x, T), exact second derivatives; NS with kappa = cos theta as a column; an autonomous orbit's "
      "trivial multiplier left out), with codim-2 points in summary.json: R1, R2, R3, R4 on NS curves, R1, "
      "LPPD and CPC (cusp of cycles) on LPC curves, R2, LPPD and GPD (generalized period doubling) on PD "
      "curves, CPC and GPD with their normal-form coefficients (the period map of forced orbits, the "
      "Poincare map of autonomous ones; smooth or hybrid), GR-PD-LPC on GR curves (where the impacting "
      "orbit's PD and LPC curves meet the grazing curve). CS (or SS) on a Filippov system's orbits: shooting "
      "plus phi_CS = 0, the arrival at the switching surface on the boundary of the sliding region, with "
      "its exact gradient (analyses/sliding/sliding_curve.h); one curve through both, CS-SS-AS where it "
      "turns from CS into SS (the drift of the sliding flow at the arrival changes sign) and the "
      "adding-sliding curve ends. One object: curve.csv, curve.png; a list: "
      "curve_<i>.csv and curves_<first>_<second>.png (all curves of that pair); summary.json \"curve\" or "
      "\"curves\". `saltus periodic --over-map MAP.csv` draws them over a map.csv of `saltus map` in the "
      "same two parameters.\n\n"
      "Map: per grid point a transient, then the section's hits over record; the attractor's period is "
      "the number of distinct hits (one when every component is within tolerance (1 + |x|), angles modulo "
      "2 pi), \"chaotic\" above max_period, \"escaped\" when the simulation fails (Zeno, grazing, a step "
      "budget), \"no hits\" when the attractor does not cross the section. lyapunov adds the largest "
      "Lyapunov exponent from the point's end state; seed \"rows\" starts each point from the end state of "
      "its neighbour in x (the first of a row from initial with a doubled transient).\n\n"
      "Output folder: simulate: trajectory.csv, events.csv, sections.csv, summary.json (with "
      "--transition-matrix its \"transition_matrix\"), phase.png/.svg, "
      "time.png/.svg; lyapunov (with --out): lyapunov.csv, lyapunov.json, lyapunov.png/.svg; sweep: "
      "sweep.csv, sweep.json, sweep.png/.svg; periodic: orbit.png (the orbit in the plot's plane, events "
      "marked), branch.csv, branch.png; map: map.csv (one row per point), summary.json (counts per class), "
      "map.png/.svg (the classes coloured). --resume continues a stopped sweep or map, Ctrl-C writes the "
      "finished points.",
      hybrid_keys(), "Continuation options (periodic.*, periodic.curve.*)",
      option_rows(continuation_option_table(), ""),
      // Your own system's keys, read by models/ (still prose there).
      std::string(models::kHybridExpressionHelp) + "\n" + models::kMechanicalExpressionHelp + "\n" +
          models::kFilippovExpressionHelp +
          "\n  forcing_period an expression of the parameters (\"2*pi/w\"): a forced system; a periodic "
          "orbit's\n                 period follows it along a branch\n  angles         state names "
          "that are angles (wrapped for shooting, drawn modulo 2 pi)\n\nBuilt-in models:\n" +
          models::hybrid_models_help()};
  return kind;
}

}  // namespace saltus::studies
