#include "drivers/cli.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <iomanip>
#include <new>

#include "drivers/continue_command.h"
#include "drivers/extremal_commands.h"
#include "drivers/extremal_continue.h"
#include "drivers/filippov_commands.h"
#include "drivers/hybrid_commands.h"
#include "drivers/map_command.h"
#include "drivers/output.h"
#include "drivers/periodic_curve.h"
#include "drivers/progress.h"
#include "studies/json_input.h"
#include "studies/option_tables.h"
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

// The command line: every subcommand, the values its options set, and the
// run-file help as its footer.
struct Cli {
  CLI::App app{"saltus: bifurcation analysis of smooth and non-smooth mechanical systems", "saltus"};
  std::string file, out_dir;                    // RUNFILE and --out of every subcommand
  std::pair<std::string, std::string> restart;  // continue: --from DIR, --point LABEL
  bool json = false;
  bool no_figures = false;         // --no-figures of every command that writes files
  bool transition_matrix = false;  // simulate: --transition-matrix
  std::vector<double> pose;
  double box = 0.0;
  int threads = 0, samples = 0;
  GridControl grid;      // sweep, map: --resume and the hidden --interrupt-after
  std::string over_map;  // periodic: a map.csv under the curves
  CLI::App *cont = nullptr, *sim = nullptr, *lyap = nullptr, *periodic = nullptr, *sweep = nullptr;
  CLI::App *classify = nullptr, *solutions = nullptr, *econtinue = nullptr, *etrack = nullptr;
  CLI::App *twofold = nullptr, *fmap = nullptr, *futures = nullptr, *fcont = nullptr;
  CLI::App* hmap = nullptr;  // saltus map

  // A subcommand of `parent` with RUNFILE, [--out and --no-figures] and
  // --json: every command that writes files draws figures.
  CLI::App* command(CLI::App& parent, const std::string& name, const std::string& what,
                    const std::string& runfile, const std::string& out_help, const std::string& json_help,
                    const std::string& footer) {
    CLI::App* c = parent.add_subcommand(name, what);
    c->add_option("RUNFILE", file, runfile)->required()->check(CLI::ExistingFile);
    if (!out_help.empty()) {
      c->add_option("--out", out_dir, out_help);
      c->add_flag(
          "--no-figures", no_figures,
          "write the results (CSV, JSON) alone: no figures (.png, .svg), no gnuplot files (.dat, .gp), "
          "gnuplot not run");
    }
    c->add_flag("--json", json, json_help);
    if (!footer.empty()) c->footer(footer);
    return c;
  }

  Cli() {
    app.require_subcommand(1);
    const std::string out = "output folder (default out/<name>)",
                      summary = "print the summary JSON to stdout";
    cont = command(app, "continue", "Follow a branch of solutions of F(x, p) = 0 defined in a run file",
                   "JSON run file", out, summary, run_file_help());
    CLI::Option* from = cont->add_option(
        "--from", restart.first,
        "restart: the output folder of an earlier run (its summary.json); with --point, the first branch "
        "is not recomputed and the run file's follow-ups of the point's kind start from it");
    cont->add_option("--point", restart.second,
                     "restart: the saved point, its type and number on the first branch (LP1: fold_curve, "
                     "BP1: switch_branch, HB1: hopf_curve and hopf_cycles, PD1: periodic.period_doubling)")
        ->needs(from);
    from->needs("--point");
    add_hybrid(out, summary);
    add_extremal(out, summary);
    add_filippov(out, summary);
  }

  void add_hybrid(const std::string& out, const std::string& summary) {
    const std::string& help = hybrid_run_file_help();
    sim = command(app, "simulate", "Simulate a hybrid system (impacts, contact) from a run file",
                  "JSON run file", out, summary, help);
    sim->add_flag("--transition-matrix", transition_matrix,
                  "also integrate the variational equations: summary.json's \"transition_matrix\" is "
                  "Phi(t1, t0), saltations included (without it the state alone is integrated)");
    lyap = command(app, "lyapunov", "Lyapunov exponents of a hybrid system, saltation included",
                   "JSON run file", "also write the running estimates and a figure into this folder",
                   "print the result as JSON (\"exponents\": largest first)", help);
    periodic = command(
        app, "periodic", "A periodic orbit by shooting with saltation: period, multipliers; its branch",
        "JSON run file with 'periodic'", "output folder for a continued branch (default out/<name>)",
        "print the result as JSON", help);
    periodic
        ->add_option("--over-map", over_map,
                     "draw the two-parameter curves ('periodic.curve') over this map.csv of `saltus map` "
                     "(a map of the same two parameters, either way round)")
        ->check(CLI::ExistingFile);
    sweep = command(app, "sweep", "Brute-force bifurcation diagram of a hybrid system on a Poincare section",
                    "JSON run file with 'section' and 'sweep'", out, summary, help);
    add_grid_options(sweep);
    hmap =
        command(app, "map", "Two-parameter brute-force map of a hybrid system's attractors (period, chaos)",
                "JSON run file with 'section' and 'map'", out, summary, help);
    add_grid_options(hmap);
  }

  // --resume, and --interrupt-after N (hidden, for tests: raise SIGINT after N points).
  void add_grid_options(CLI::App* c) {
    c->add_flag("--resume", grid.resume,
                "continue a stopped run from its journal (<out>/<kind>.journal.jsonl); the files end as an "
                "uninterrupted run's");
    c->add_option("--interrupt-after", grid.interrupt_after)->group("")->check(CLI::NonNegativeNumber);
  }

  void add_extremal(const std::string& out, const std::string& summary) {
    CLI::App* extremal =
        app.add_subcommand("extremal", "Contact points between smooth planar bodies (Damerau & Low)");
    extremal->require_subcommand(1);
    const std::string runfile = "JSON run file (see examples/extremal/)";
    classify = command(*extremal, "classify",
                       "Classify a degenerate contact point: Lyapunov coefficients, codimension, normal form",
                       runfile, "", "print the result as JSON", "");
    solutions = command(*extremal, "solutions", "All extremal points near the degenerate point at a pose",
                        runfile, "", "print the result as JSON", "");
    solutions->add_option("--pose", pose, "the pose X Y PHI")->required()->expected(3);
    solutions->add_option("--box", box,
                          "half-width H of the box |s_i - s_i*| <= H (default: the run file's)");
    econtinue = command(*extremal, "continue",
                        "Folds, cusps, swallowtails located by continuation in the pose, then classified",
                        "JSON run file with 'continue'", out, summary, extremal_continue_help());
    etrack = command(*extremal, "track",
                     "Every extremal point along a motion x(t), y(t), phi(t); events classified",
                     "JSON run file with 'track'", out, summary, extremal_continue_help());
  }

  void add_filippov(const std::string& out, const std::string& summary) {
    CLI::App* filippov = app.add_subcommand("filippov", "Filippov systems (Szalai & Jeffrey)");
    filippov->require_subcommand(1);
    const std::string& help = filippov_run_file_help();
    twofold =
        command(*filippov, "twofold", "Locate and classify a two-fold singularity",
                "JSON run file (examples/wheel_turntable.json, or your own: examples/user/two_fold.json)", "",
                "print x_star, K, J1, J2, eigenvalues, case as JSON", help);
    fmap =
        command(*filippov, "map", "Fig. 4: where a two-fold is non-deterministic (case 1) over (r*, omega*)",
                "JSON run file with an optional 'map'", out, summary, help);
    fmap->add_option("--threads", threads, "worker threads (default: the run file's, else all cores)");
    futures =
        command(*filippov, "futures", "Fig. 5: orbits into a case-1 two-fold and sampled futures out of it",
                "JSON run file with 'guess'", out, summary, help);
    futures->add_option("--samples", samples, "number of futures (default: the run file's, else 16)");
    fcont = command(*filippov, "continue", "Continue a two-fold in one constant; locate the case boundaries",
                    "JSON run file with 'guess' and optional 'continuation'", out, summary, help);
  }

  // --out, else out/<name>.
  std::filesystem::path folder(const std::string& name) const {
    return out_dir.empty() ? std::filesystem::path("out") / name : std::filesystem::path(out_dir);
  }

  // simulate, lyapunov and periodic report progress on `err` over their span.
  int run_hybrid(std::ostream& out, std::ostream& err) const {
    HybridRun read = read_hybrid_run(file);
    if (*lyap) {
      const double begin = read.t0, end = read.t0 + read.lyapunov.transient + read.lyapunov.duration;
      return lyapunov_command(reporting(std::move(read), "lyapunov", err, begin, end), out_dir, json, out,
                              err);
    }
    if (*sim) {
      const double begin = read.t0 - read.transient, end = read.t1;
      const HybridRun run = reporting(std::move(read), "simulate", err, begin, end);
      return simulate_command(run, folder(run.name), json, out, err, transition_matrix);
    }
    if (*periodic) {
      if (!over_map.empty()) {
        if (!read.periodic)
          throw RunFileError("--over-map " + over_map + ": run file " + file + " has no 'periodic'");
        check_curve_map(*read.periodic, over_map);
        read.periodic->curve_map = over_map;
      }
      std::shared_ptr<TimeProgress> progress;
      const HybridRun run = reporting(std::move(read), "periodic", err, 0, 0, &progress);
      return periodic_command(run, folder(run.name), json, out, err, progress);
    }
    const HybridRun& run = read;
    if (*hmap) {
      if (!run.map) throw RunFileError("run file " + file + ": 'map' is missing (see saltus map --help)");
      return map_command(run, folder(run.name), json, out, err, grid);
    }
    if (!run.sweep) throw RunFileError("run file " + file + ": 'sweep' is missing");
    return sweep_command(run, folder(run.name), json, out, err, grid);
  }

  int run_extremal(std::ostream& out, std::ostream& err) const {
    const ExtremalRun run = read_extremal_run(file);
    if (*classify) return extremal_classify_command(run, json, out, err);
    if (*solutions) return extremal_solutions_command(run, pose[0], pose[1], pose[2], box, json, out, err);
    if (*econtinue) return extremal_continue_command(run, folder(run.name), json, out, err);
    return extremal_track_command(run, folder(run.name), json, out, err);
  }

  int run_filippov(std::ostream& out, std::ostream& err) const {
    if (*twofold) return filippov_twofold_command(file, json, out, err);
    if (*fmap) return filippov_map_command(file, out_dir, threads, json, out, err);
    if (*futures) return filippov_futures_command(file, out_dir, samples, json, out, err);
    return filippov_continue_command(file, out_dir, json, out, err);
  }

  int run(std::ostream& out, std::ostream& err) const {
    if (*cont) return continue_command(file, out_dir, restart, json, out, err);
    if (*sim || *lyap || *periodic || *sweep || *hmap) return run_hybrid(out, err);
    if (*classify || *solutions || *econtinue || *etrack) return run_extremal(out, err);
    if (*twofold || *fmap || *futures || *fcont) return run_filippov(out, err);
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
  set_figures(!cli.no_figures);  // drivers/output.h: every command's figures, for this run
  try {
    return cli.run(out, err);
  } catch (const std::exception& e) {
    // A RunFileError names its file; any other failure of a run is told with
    // the run file too, so a user running many knows which one it was.
    const std::string& run_file = cli.file;
    const std::string what = error_message(e);
    err << "saltus: error: " << (what.find(run_file) == std::string::npos ? run_file + ": " : "") << what
        << '\n';
    return 1;
  }
}

}  // namespace saltus::drivers
