#include "drivers/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <map>
#include <new>

#include "drivers/continue_command.h"
#include "drivers/extremal_commands.h"
#include "drivers/extremal_continue.h"
#include "drivers/filippov_commands.h"
#include "drivers/hybrid_commands.h"
#include "drivers/map_command.h"
#include "drivers/periodic_curve.h"
#include "drivers/progress.h"
#include "studies/json_input.h"
#include "studies/option_tables.h"
#include "studies/output.h"
#include "studies/restart.h"

namespace saltus::drivers {

namespace {

// A progress line on stderr once a run has taken more than a second: updated
// in place on a terminal, one line every 2 s in a log.
class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& err) : err_(err), tty_(::isatty(STDERR_FILENO)) {}
  ~ProgressLine() {
    if (printed_ && tty_) err_ << '\n';
  }
  void operator()(const std::string& name, const Branch& branch) {
    using namespace std::chrono;
    const auto now = steady_clock::now();
    if (now - start_ < seconds(1) || now - last_ < milliseconds(tty_ ? 200 : 2000)) return;
    last_ = now;
    printed_ = true;
    const auto& p = branch.points.back();
    err_ << (tty_ ? "\r" : "") << "saltus: " << name << ": point " << branch.points.size() << ", "
         << branch.names[branch.state_size] << " = " << std::setprecision(8) << p.y[branch.state_size]
         << ", ds = " << std::setprecision(3) << p.ds << ", " << branch.special_points.size()
         << " special point(s)" << (tty_ ? "   " : "\n") << std::flush;
  }

 private:
  std::ostream& err_;
  bool tty_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

// `restart`: --from DIR and --point LABEL (both empty: none).
int continue_command(const std::string& file, const std::string& out_dir,
                     const std::pair<std::string, std::string>& restart, bool json, std::ostream& out,
                     std::ostream& err) {
  RunFile run = read_run_file(file);
  if (!restart.first.empty()) prepare_restart(&run, restart.first, restart.second);
  // Finding an orbit by simulation, or the first cycle from a Hopf point
  // (Newton on the shooting residual), can take long before the first point.
  if (run.periodic)
    run.periodic->flow =
        with_progress(run.periodic->flow, std::make_shared<TimeProgress>(err, "saltus continue: " + file));
  if (run.hopf_cycles) {
    auto cycles = std::make_shared<TimeProgress>(err, "saltus continue: " + file);
    cycles->set_stage("hopf_cycles: shooting the cycles from the Hopf point");
    run.hopf_cycles->flow = with_progress(run.hopf_cycles->flow, cycles);
  }
  ProgressLine progress(err);
  std::string follow_up_error;
  const auto branches = run_continuation(run, std::ref(progress), &follow_up_error);
  const Branch& first = branches.front().branch;
  if (!first.usable()) {
    err << "saltus continue: " << run.path.string() << ": " << first.message << '\n';
    return 2;
  }
  const std::filesystem::path dir =
      out_dir.empty() ? std::filesystem::path("out") / run.name : std::filesystem::path(out_dir);
  std::vector<std::string> warnings;
  if (run.expressions && run.expressions->failed) warnings.push_back(run.expressions->note);
  const auto files = write_outputs(run, branches, dir, &warnings);
  for (const auto& w : warnings) err << "saltus continue: warning: " << w << '\n';
  if (json) {
    out << summarize(run, branches).dump(2) << '\n';
  } else {
    for (const NamedBranch& nb : branches) {
      const Branch& branch = nb.branch;
      out << nb.name << ": " << branch.points.size() << " points, " << to_string(branch.stop_reason) << " ("
          << branch.message << ")\n";
      for (const auto& s : branch.special_points) {
        out << "  " << std::setw(2) << s.type << "  " << to_string(s.status);  // "jump": see EventStatus
        for (const auto& [k, v] : branch.parameters_at(s.y))
          out << "  " << k << " = " << std::setprecision(15) << v;
        for (const auto& [k, v] : s.data.items())
          out << "  " << k << " = " << (v.is_string() ? v.get<std::string>() : v.dump());
        out << "  (precision " << std::setprecision(2) << s.precision << ")\n";
      }
    }
    out << "wrote " << files.size() << " files to " << dir.string() << '\n';
  }
  if (!follow_up_error.empty()) {
    err << "saltus: error: " << run.path.string() << ": " << follow_up_error
        << " (the branches before it are written)\n";
    return 1;
  }
  return 0;
}

// The run with its integrations reporting progress on `err` (drivers/progress.h),
// over [t_begin, t_end] when known (t_end <= t_begin: not known); *line
// (when given) gets the progress line, for the stages of a continuation.
HybridRun reporting(HybridRun run, const std::string& command, std::ostream& err, double t_begin = 0,
                    double t_end = 0, std::shared_ptr<TimeProgress>* line = nullptr) {
  auto progress = std::make_shared<TimeProgress>(err, "saltus " + command + ": " + run.path.string());
  progress->set_span(t_begin, t_end);
  run.system = with_progress(run.system, progress);
  if (line) *line = std::move(progress);
  return run;
}

}  // namespace

std::string error_message(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory: the run needs more than this machine has; reduce its size (points, samples, "
           "grid, duration / interval)";
  std::string what = e.what();
  // Anywhere in the text: our messages quote the libraries' after a colon.
  const auto erase = [&what](const std::string& from, const std::string& to) {
    for (std::size_t at, end; (at = what.find(from)) != std::string::npos &&
                              (end = what.find(to, at + from.size())) != std::string::npos;)
      what.erase(at, end + to.size() - at);
  };
  erase("[json.exception.", "] ");
  erase("Error in function ", ": ");
  erase("std::", "");
  // A run file's strings quoted in a message keep it on one line.
  return printable(what);
}

namespace {

// What the command line gave: the values every command's options set.
struct Args {
  std::string file, out_dir;                    // RUNFILE and --out of every subcommand
  std::pair<std::string, std::string> restart;  // continue: --from DIR, --point LABEL
  bool json = false;
  bool no_figures = false;         // --no-figures of every command that writes files
  bool transition_matrix = false;  // simulate: --transition-matrix
  std::vector<double> pose;        // extremal solutions: --pose X Y PHI
  double box = 0.0;
  int threads = 0, samples = 0;  // filippov map, futures
  GridOptions grid;              // sweep, map: --resume and the hidden --interrupt-after
  std::string over_map;          // periodic: a map.csv under the curves

  // --out, else out/<name>.
  std::filesystem::path folder(const std::string& name) const {
    return out_dir.empty() ? std::filesystem::path("out") / name : std::filesystem::path(out_dir);
  }
};

// ---- Each command: its own options, and what it runs.

void continue_options(CLI::App* c, Args* a) {
  CLI::Option* from = c->add_option(
      "--from", a->restart.first,
      "restart: the output folder of an earlier run (its summary.json); with --point, the first branch "
      "is not recomputed and the run file's follow-ups of the point's kind start from it");
  c->add_option("--point", a->restart.second,
                "restart: the saved point, its type and number on the first branch (LP1: fold_curve, "
                "BP1: switch_branch, HB1: hopf_curve and hopf_cycles, PD1: periodic.period_doubling)")
      ->needs(from);
  from->needs("--point");
}

void simulate_options(CLI::App* c, Args* a) {
  c->add_flag("--transition-matrix", a->transition_matrix,
              "also integrate the variational equations: summary.json's \"transition_matrix\" is "
              "Phi(t1, t0), saltations included (without it the state alone is integrated)");
}

void periodic_options(CLI::App* c, Args* a) {
  c->add_option("--over-map", a->over_map,
                "draw the two-parameter curves ('periodic.curve') over this map.csv of `saltus map` "
                "(a map of the same two parameters, either way round)")
      ->check(CLI::ExistingFile);
}

// --resume, and --interrupt-after N (hidden, for tests: stop after N points, as Ctrl-C does).
void grid_options(CLI::App* c, Args* a) {
  c->add_flag("--resume", a->grid.resume,
              "continue a stopped run from its journal (<out>/<kind>.journal.jsonl); the files end as an "
              "uninterrupted run's");
  c->add_option("--interrupt-after", a->grid.interrupt_after)->group("")->check(CLI::NonNegativeNumber);
}

void solutions_options(CLI::App* c, Args* a) {
  c->add_option("--pose", a->pose, "the pose X Y PHI")->required()->expected(3);
  c->add_option("--box", a->box, "half-width H of the box |s_i - s_i*| <= H (default: the run file's)");
}

void fmap_options(CLI::App* c, Args* a) {
  c->add_option("--threads", a->threads, "worker threads (default: the run file's, else all cores)");
}

void futures_options(CLI::App* c, Args* a) {
  c->add_option("--samples", a->samples, "number of futures (default: the run file's, else 16)");
}

int run_continue(const Args& a, std::ostream& out, std::ostream& err) {
  return continue_command(a.file, a.out_dir, a.restart, a.json, out, err);
}

int run_simulate(const Args& a, std::ostream& out, std::ostream& err) {
  HybridRun read = read_hybrid_run(a.file);
  const double begin = read.t0 - read.transient, end = read.t1;
  const HybridRun run = reporting(std::move(read), "simulate", err, begin, end);
  return simulate_command(run, a.folder(run.name), a.json, out, err, a.transition_matrix);
}

int run_lyapunov(const Args& a, std::ostream& out, std::ostream& err) {
  HybridRun read = read_hybrid_run(a.file);
  const double begin = read.t0, end = read.t0 + read.lyapunov.transient + read.lyapunov.duration;
  return lyapunov_command(reporting(std::move(read), "lyapunov", err, begin, end), a.out_dir, a.json, out,
                          err);
}

int run_periodic(const Args& a, std::ostream& out, std::ostream& err) {
  HybridRun read = read_hybrid_run(a.file);
  if (!a.over_map.empty()) {
    if (!read.periodic)
      throw RunFileError("--over-map " + a.over_map + ": run file " + a.file + " has no 'periodic'");
    check_curve_map(*read.periodic, a.over_map);
    read.periodic->curve_map = a.over_map;
  }
  std::shared_ptr<TimeProgress> progress;
  const HybridRun run = reporting(std::move(read), "periodic", err, 0, 0, &progress);
  return periodic_command(run, a.folder(run.name), a.json, out, err, progress);
}

int run_sweep(const Args& a, std::ostream& out, std::ostream& err) {
  const HybridRun run = read_hybrid_run(a.file);
  if (!run.sweep) throw RunFileError("run file " + a.file + ": 'sweep' is missing");
  return sweep_command(run, a.folder(run.name), a.json, out, err, a.grid);
}

int run_map(const Args& a, std::ostream& out, std::ostream& err) {
  const HybridRun run = read_hybrid_run(a.file);
  if (!run.map) throw RunFileError("run file " + a.file + ": 'map' is missing (see saltus map --help)");
  return map_command(run, a.folder(run.name), a.json, out, err, a.grid);
}

int run_classify(const Args& a, std::ostream& out, std::ostream& err) {
  return extremal_classify_command(read_extremal_run(a.file), a.json, out, err);
}

int run_solutions(const Args& a, std::ostream& out, std::ostream& err) {
  return extremal_solutions_command(read_extremal_run(a.file), a.pose[0], a.pose[1], a.pose[2], a.box, a.json,
                                    out, err);
}

int run_extremal_continue(const Args& a, std::ostream& out, std::ostream& err) {
  const ExtremalRun run = read_extremal_run(a.file);
  return extremal_continue_command(run, a.folder(run.name), a.json, out, err);
}

int run_extremal_track(const Args& a, std::ostream& out, std::ostream& err) {
  const ExtremalRun run = read_extremal_run(a.file);
  return extremal_track_command(run, a.folder(run.name), a.json, out, err);
}

int run_twofold(const Args& a, std::ostream& out, std::ostream& err) {
  return filippov_twofold_command(a.file, a.json, out, err);
}

int run_filippov_map(const Args& a, std::ostream& out, std::ostream& err) {
  return filippov_map_command(a.file, a.out_dir, a.threads, a.json, out, err);
}

int run_futures(const Args& a, std::ostream& out, std::ostream& err) {
  return filippov_futures_command(a.file, a.out_dir, a.samples, a.json, out, err);
}

int run_filippov_continue(const Args& a, std::ostream& out, std::ostream& err) {
  return filippov_continue_command(a.file, a.out_dir, a.json, out, err);
}

// ---- The command table: every subcommand, under its group ("" the top
// level), with RUNFILE's help, --out's (none: the command writes no files,
// so no --out or --no-figures), --json's, the run-file keys as its footer,
// its own options and what it runs.
const std::string& no_footer() {
  static const std::string none;
  return none;
}

struct Command {
  const char *group, *name, *what, *runfile, *out, *json;
  const std::string& (*footer)();
  void (*options)(CLI::App*, Args*);
  int (*run)(const Args&, std::ostream&, std::ostream&);
};

constexpr const char* kOut = "output folder (default out/<name>)";
constexpr const char* kSummary = "print the summary JSON to stdout";
constexpr const char* kResult = "print the result as JSON";
constexpr const char* kExtremal = "JSON run file (see examples/extremal/)";
constexpr const char* kFilippov = "JSON run file with 'guess'";

const std::string& extremal_help() { return extremal_continue_help(); }

const Command kCommands[] = {
    {"", "continue", "Follow a branch of solutions of F(x, p) = 0 defined in a run file", "JSON run file",
     kOut, kSummary, run_file_help, continue_options, run_continue},
    {"", "simulate", "Simulate a hybrid system (impacts, contact) from a run file", "JSON run file", kOut,
     kSummary, hybrid_run_file_help, simulate_options, run_simulate},
    {"", "lyapunov", "Lyapunov exponents of a hybrid system, saltation included", "JSON run file",
     "also write the running estimates and a figure into this folder",
     "print the result as JSON (\"exponents\": largest first)", hybrid_run_file_help, nullptr, run_lyapunov},
    {"", "periodic", "A periodic orbit by shooting with saltation: period, multipliers; its branch",
     "JSON run file with 'periodic'", "output folder for a continued branch (default out/<name>)", kResult,
     hybrid_run_file_help, periodic_options, run_periodic},
    {"", "sweep", "Brute-force bifurcation diagram of a hybrid system on a Poincare section",
     "JSON run file with 'section' and 'sweep'", kOut, kSummary, hybrid_run_file_help, grid_options,
     run_sweep},
    {"", "map", "Two-parameter brute-force map of a hybrid system's attractors (period, chaos)",
     "JSON run file with 'section' and 'map'", kOut, kSummary, hybrid_run_file_help, grid_options, run_map},
    {"extremal", "classify",
     "Classify a degenerate contact point: Lyapunov coefficients, codimension, normal form", kExtremal,
     nullptr, kResult, no_footer, nullptr, run_classify},
    {"extremal", "solutions", "All extremal points near the degenerate point at a pose", kExtremal, nullptr,
     kResult, no_footer, solutions_options, run_solutions},
    {"extremal", "continue",
     "Folds, cusps, swallowtails located by continuation in the pose, then classified",
     "JSON run file with 'continue'", kOut, kSummary, extremal_help, nullptr, run_extremal_continue},
    {"extremal", "track", "Every extremal point along a motion x(t), y(t), phi(t); events classified",
     "JSON run file with 'track'", kOut, kSummary, extremal_help, nullptr, run_extremal_track},
    {"filippov", "twofold", "Locate and classify a two-fold singularity",
     "JSON run file (examples/wheel_turntable.json, or your own: examples/user/two_fold.json)", nullptr,
     "print x_star, K, J1, J2, eigenvalues, case as JSON", filippov_run_file_help, nullptr, run_twofold},
    {"filippov", "map", "Fig. 4: where a two-fold is non-deterministic (case 1) over (r*, omega*)",
     "JSON run file with an optional 'map'", kOut, kSummary, filippov_run_file_help, fmap_options,
     run_filippov_map},
    {"filippov", "futures", "Fig. 5: orbits into a case-1 two-fold and sampled futures out of it", kFilippov,
     kOut, kSummary, filippov_run_file_help, futures_options, run_futures},
    {"filippov", "continue", "Continue a two-fold in one constant; locate the case boundaries",
     "JSON run file with 'guess' and optional 'continuation'", kOut, kSummary, filippov_run_file_help,
     nullptr, run_filippov_continue},
};

const std::pair<const char*, const char*> kGroups[] = {
    {"extremal", "Contact points between smooth planar bodies (Damerau & Low)"},
    {"filippov", "Filippov systems (Szalai & Jeffrey)"}};

// The command line built from the table.
struct Cli {
  CLI::App app{"saltus: bifurcation analysis of smooth and non-smooth mechanical systems", "saltus"};
  Args args;
  std::vector<CLI::App*> apps;  // kCommands' subcommands, in order

  Cli() {
    app.require_subcommand(1);
    std::map<std::string, CLI::App*> groups{{"", &app}};
    for (const Command& c : kCommands) {
      if (!groups.count(c.group)) {  // a group's subcommand where its first command is in the table
        const auto& [name, what] = *std::find_if(std::begin(kGroups), std::end(kGroups), [&c](const auto& g) {
          return c.group == std::string(g.first);
        });
        groups[name] = app.add_subcommand(name, what);
        groups[name]->require_subcommand(1);
      }
      CLI::App* sub = groups.at(c.group)->add_subcommand(c.name, c.what);
      sub->add_option("RUNFILE", args.file, c.runfile)->required()->check(CLI::ExistingFile);
      if (c.out) {  // every command that writes files draws figures
        sub->add_option("--out", args.out_dir, c.out);
        sub->add_flag(
            "--no-figures", args.no_figures,
            "write the results (CSV, JSON) alone: no figures (.png, .svg), no gnuplot files (.dat, .gp), "
            "gnuplot not run");
      }
      sub->add_flag("--json", args.json, c.json);
      if (const std::string& footer = c.footer(); !footer.empty()) sub->footer(footer);
      if (c.options) c.options(sub, &args);
      apps.push_back(sub);
    }
  }

  int run(std::ostream& out, std::ostream& err) const {
    for (std::size_t i = 0; i < apps.size(); ++i)
      if (*apps[i]) return kCommands[i].run(args, out, err);
    return 0;
  }
};

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // Hidden: the run-file tables as Markdown, for scripts/reference.
  if (args.size() == 1 && args[0] == "--reference-markdown") {
    out << studies::run_file_reference_markdown();
    return 0;
  }
  Cli cli;
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    cli.app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return cli.app.exit(e, out, err);
  }
  set_figures(!cli.args.no_figures);  // studies/output.h: every command's figures, for this run
  try {
    return cli.run(out, err);
  } catch (const std::exception& e) {
    // A RunFileError names its file; any other failure of a run is told with
    // the run file too, so a user running many knows which one it was.
    const std::string& run_file = cli.args.file;
    const std::string what = error_message(e);
    err << "saltus: error: " << (what.find(run_file) == std::string::npos ? run_file + ": " : "") << what
        << '\n';
    return 1;
  }
}

}  // namespace saltus::drivers
