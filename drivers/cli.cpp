#include "drivers/cli.h"

#include <chrono>
#include <iomanip>
#include <new>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "drivers/continue_command.h"
#include "drivers/extremal_commands.h"
#include "drivers/extremal_continue.h"
#include "drivers/filippov_commands.h"
#include "drivers/hybrid_commands.h"
#include "drivers/progress.h"

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
         << branch.names[branch.state_size] << " = " << std::setprecision(8)
         << p.y[branch.state_size] << ", ds = " << std::setprecision(3) << p.ds << ", "
         << branch.special_points.size() << " special point(s)" << (tty_ ? "   " : "\n") << std::flush;
  }

 private:
  std::ostream& err_;
  bool tty_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_{};
};

int continue_command(const std::string& file, const std::string& out_dir, bool json, std::ostream& out,
                     std::ostream& err) {
  RunFile run = read_run_file(file);
  if (run.periodic)  // finding the orbit by simulation can take long before the first point
    run.periodic->flow =
        with_progress(run.periodic->flow, std::make_shared<TimeProgress>(err, "saltus continue: " + file));
  ProgressLine progress(err);
  std::string follow_up_error;
  const auto branches = run_continuation(run, std::ref(progress), &follow_up_error);
  const Branch& first = branches.front().branch;
  if (!first.ok()) {
    err << "saltus continue: " << run.path.string() << ": " << first.message << '\n';
    return 2;
  }
  const std::filesystem::path dir =
      out_dir.empty() ? std::filesystem::path("out") / run.name : std::filesystem::path(out_dir);
  std::vector<std::string> warnings;
  const auto files = write_outputs(run, branches, dir, &warnings);
  for (const auto& w : warnings) err << "saltus continue: warning: " << w << '\n';
  if (json) {
    out << summarize(run, branches).dump(2) << '\n';
  } else {
    for (const auto& [name, branch] : branches) {
      out << name << ": " << branch.points.size() << " points, " << to_string(branch.stop_reason) << " ("
          << branch.message << ")\n";
      for (const auto& s : branch.special_points) {
        out << "  " << std::setw(2) << s.type << "  " << to_string(s.status);  // "jump": see EventStatus
        for (const auto& [k, v] : branch.parameters_at(s.y)) out << "  " << k << " = " << std::setprecision(15) << v;
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
// over [t_begin, t_end] when known (t_end <= t_begin: not known).
HybridRun reporting(HybridRun run, const std::string& command, std::ostream& err, double t_begin = 0,
                    double t_end = 0) {
  auto progress = std::make_shared<TimeProgress>(err, "saltus " + command + ": " + run.path.string());
  progress->set_span(t_begin, t_end);
  run.system = with_progress(run.system, std::move(progress));
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
  return what;
}

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"saltus: bifurcation analysis of smooth and non-smooth mechanical systems"};
  app.require_subcommand(1);
  std::string file, out_dir;
  bool json = false;
  auto* cont = app.add_subcommand("continue", "Follow a branch of solutions of F(x, p) = 0 defined in a run file");
  cont->add_option("RUNFILE", file, "JSON run file")->required()->check(CLI::ExistingFile);
  cont->add_option("--out", out_dir, "output folder (default out/<name>)");
  cont->add_flag("--json", json, "print the summary JSON to stdout");
  cont->footer(kRunFileHelp);

  std::string hybrid_file, hybrid_out;
  bool hybrid_json = false;
  auto* sim = app.add_subcommand("simulate", "Simulate a hybrid system (impacts, contact) from a run file");
  sim->add_option("RUNFILE", hybrid_file, "JSON run file")->required()->check(CLI::ExistingFile);
  sim->add_option("--out", hybrid_out, "output folder (default out/<name>)");
  sim->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  sim->footer(hybrid_run_file_help());
  auto* lyap = app.add_subcommand("lyapunov", "Lyapunov exponents of a hybrid system, saltation included");
  lyap->add_option("RUNFILE", hybrid_file, "JSON run file")->required()->check(CLI::ExistingFile);
  lyap->add_option("--out", hybrid_out, "also write the running estimates and a figure into this folder");
  lyap->add_flag("--json", hybrid_json, "print the result as JSON (\"exponents\": largest first)");
  lyap->footer(hybrid_run_file_help());

  auto* periodic = app.add_subcommand("periodic", "A periodic orbit by shooting with saltation: period, multipliers; its branch");
  periodic->add_option("RUNFILE", hybrid_file, "JSON run file with 'periodic'")->required()->check(CLI::ExistingFile);
  periodic->add_option("--out", hybrid_out, "output folder for a continued branch (default out/<name>)");
  periodic->add_flag("--json", hybrid_json, "print the result as JSON");
  periodic->footer(hybrid_run_file_help());
  auto* sweep = app.add_subcommand("sweep", "Brute-force bifurcation diagram of a hybrid system on a Poincare section");
  sweep->add_option("RUNFILE", hybrid_file, "JSON run file with 'section' and 'sweep'")->required()->check(CLI::ExistingFile);
  sweep->add_option("--out", hybrid_out, "output folder (default out/<name>)");
  sweep->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  sweep->footer(hybrid_run_file_help());

  auto* extremal = app.add_subcommand("extremal", "Contact points between smooth planar bodies (Damerau & Low)");
  extremal->require_subcommand(1);
  std::string extremal_file;
  std::vector<double> pose;
  double box = 0.0;
  auto* classify = extremal->add_subcommand(
      "classify", "Classify a degenerate contact point: Lyapunov coefficients, codimension, normal form");
  classify->add_option("RUNFILE", extremal_file, "JSON run file (see examples/extremal/)")->required()->check(CLI::ExistingFile);
  classify->add_flag("--json", hybrid_json, "print the result as JSON");
  auto* solutions = extremal->add_subcommand("solutions", "All extremal points near the degenerate point at a pose");
  solutions->add_option("RUNFILE", extremal_file, "JSON run file (see examples/extremal/)")->required()->check(CLI::ExistingFile);
  solutions->add_option("--pose", pose, "the pose X Y PHI")->required()->expected(3);
  solutions->add_option("--box", box, "half-width H of the box |s_i - s_i*| <= H (default: the run file's)");
  solutions->add_flag("--json", hybrid_json, "print the result as JSON");
  std::string extremal_out;
  auto* econtinue = extremal->add_subcommand(
      "continue", "Folds, cusps, swallowtails located by continuation in the pose, then classified");
  econtinue->add_option("RUNFILE", extremal_file, "JSON run file with 'continue'")->required()->check(CLI::ExistingFile);
  econtinue->add_option("--out", extremal_out, "output folder (default out/<name>)");
  econtinue->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  econtinue->footer(kExtremalContinueHelp);
  auto* etrack = extremal->add_subcommand(
      "track", "Every extremal point along a motion x(t), y(t), phi(t); events classified");
  etrack->add_option("RUNFILE", extremal_file, "JSON run file with 'track'")->required()->check(CLI::ExistingFile);
  etrack->add_option("--out", extremal_out, "output folder (default out/<name>)");
  etrack->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  etrack->footer(kExtremalContinueHelp);

  auto* filippov = app.add_subcommand("filippov", "Filippov systems (Szalai & Jeffrey)");
  filippov->require_subcommand(1);
  std::string filippov_file;
  auto* twofold = filippov->add_subcommand("twofold", "Locate and classify a two-fold singularity");
  twofold->add_option("RUNFILE", filippov_file, "JSON run file (examples/wheel_turntable.json)")->required()->check(CLI::ExistingFile);
  twofold->add_flag("--json", hybrid_json, "print x_star, K, J1, J2, eigenvalues, case as JSON");
  twofold->footer(kFilippovRunFileHelp);
  std::string filippov_out;
  int filippov_threads = 0, filippov_samples = 0;
  auto* fmap = filippov->add_subcommand("map", "Fig. 4: where a two-fold is non-deterministic (case 1) over (r*, omega*)");
  fmap->add_option("RUNFILE", filippov_file, "JSON run file with an optional 'map'")->required()->check(CLI::ExistingFile);
  fmap->add_option("--out", filippov_out, "output folder (default out/<name>)");
  fmap->add_option("--threads", filippov_threads, "worker threads (default: the run file's, else all cores)");
  fmap->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  fmap->footer(kFilippovRunFileHelp);
  auto* futures = filippov->add_subcommand("futures", "Fig. 5: orbits into a case-1 two-fold and sampled futures out of it");
  futures->add_option("RUNFILE", filippov_file, "JSON run file with 'guess'")->required()->check(CLI::ExistingFile);
  futures->add_option("--out", filippov_out, "output folder (default out/<name>)");
  futures->add_option("--samples", filippov_samples, "number of futures (default: the run file's, else 16)");
  futures->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  futures->footer(kFilippovRunFileHelp);
  auto* fcont = filippov->add_subcommand("continue", "Continue a two-fold in one constant; locate the case boundaries");
  fcont->add_option("RUNFILE", filippov_file, "JSON run file with 'guess' and optional 'continuation'")->required()->check(CLI::ExistingFile);
  fcont->add_option("--out", filippov_out, "output folder (default out/<name>)");
  fcont->add_flag("--json", hybrid_json, "print the summary JSON to stdout");
  fcont->footer(kFilippovRunFileHelp);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }
  try {
    if (*cont) return continue_command(file, out_dir, json, out, err);
    if (*sim) {
      HybridRun read = read_hybrid_run(hybrid_file);
      const double begin = read.t0 - read.transient, end = read.t1;
      const HybridRun run = reporting(std::move(read), "simulate", err, begin, end);
      const std::filesystem::path dir = hybrid_out.empty() ? std::filesystem::path("out") / run.name
                                                           : std::filesystem::path(hybrid_out);
      return simulate_command(run, dir, hybrid_json, out, err);
    }
    if (*twofold) return filippov_twofold_command(filippov_file, hybrid_json, out, err);
    if (*fmap) return filippov_map_command(filippov_file, filippov_out, filippov_threads, hybrid_json, out, err);
    if (*futures) return filippov_futures_command(filippov_file, filippov_out, filippov_samples, hybrid_json, out, err);
    if (*fcont) return filippov_continue_command(filippov_file, filippov_out, hybrid_json, out, err);
    if (*classify) return extremal_classify_command(read_extremal_run(extremal_file), hybrid_json, out, err);
    if (*econtinue || *etrack) {
      const ExtremalRun run = read_extremal_run(extremal_file);
      const std::filesystem::path dir = extremal_out.empty() ? std::filesystem::path("out") / run.name
                                                             : std::filesystem::path(extremal_out);
      return *econtinue ? extremal_continue_command(run, dir, hybrid_json, out, err)
                        : extremal_track_command(run, dir, hybrid_json, out, err);
    }
    if (*solutions)
      return extremal_solutions_command(read_extremal_run(extremal_file), pose[0], pose[1], pose[2], box, hybrid_json,
                                        out, err);
    if (*lyap) {
      HybridRun read = read_hybrid_run(hybrid_file);
      const double begin = read.t0, end = read.t0 + read.lyapunov.transient + read.lyapunov.duration;
      return lyapunov_command(reporting(std::move(read), "lyapunov", err, begin, end), hybrid_out, hybrid_json, out,
                              err);
    }
    if (*periodic) {
      const HybridRun run = reporting(read_hybrid_run(hybrid_file), "periodic", err);
      const std::filesystem::path dir = hybrid_out.empty() ? std::filesystem::path("out") / run.name
                                                           : std::filesystem::path(hybrid_out);
      return periodic_command(run, dir, hybrid_json, out, err);
    }
    if (*sweep) {
      const HybridRun run = read_hybrid_run(hybrid_file);
      if (!run.sweep) throw RunFileError("run file " + hybrid_file + ": 'sweep' is missing");
      const std::filesystem::path dir = hybrid_out.empty() ? std::filesystem::path("out") / run.name
                                                           : std::filesystem::path(hybrid_out);
      return sweep_command(run, dir, hybrid_json, out, err);
    }
  } catch (const std::exception& e) {
    // A RunFileError names its file; any other failure of a run is told with
    // the run file too, so a user running many knows which one it was.
    const std::string run_file = !file.empty()            ? file
                                 : !hybrid_file.empty()   ? hybrid_file
                                 : !extremal_file.empty() ? extremal_file
                                                          : filippov_file;
    const std::string what = error_message(e);
    err << "saltus: error: " << (what.find(run_file) == std::string::npos ? run_file + ": " : "") << what << '\n';
    return 1;
  }
  return 0;
}

}  // namespace saltus::drivers
