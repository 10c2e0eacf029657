// saltus_peer_siconos: the forced impact oscillator and the chaotic bouncing
// ball integrated by Siconos (Acary & Brogliato 2008; Debian's
// libsiconos-kernel-dev 4.4), event-driven: LSODAR between events, its root
// finder locating each impact, Newton's impact law at the impact (an LCP at
// velocity level), for bench/peer/siconos_compare.sh to set beside saltus
// (bench/peer/impact_events.cpp) over the same impacts. Built only when CMake
// finds Siconos (bench/CMakeLists.txt).
//
//   saltus_peer_siconos FILE [--tol 1e-10] [--t1 T] [--max-events N] [--repeat K]
//
// FILE is the run file saltus reads; its parameters, initial state and span
// are read here and the model is written out in Siconos' terms (checked
// against the run file's expressions, so that an edit of the file cannot
// silently leave the two apart):
//
// - examples/user/impact_oscillator.json: x'' + 2 zeta x' + x = F cos(w t),
//   a LagrangianLinearTIDS (M = 1, K = 1, C = 2 zeta, F_ext(t) = F cos(w t))
//   with the unilateral constraint d - x >= 0 (LagrangianLinearTIR, C = -1,
//   e = d) and the Newton law v+ = -r v-.
// - the bouncing ball (model "bouncing_ball": a ball over a table moving as
//   A sin(omega t), v+ - T' = -e (v- - T')) in the table's frame:
//   y = q - A sin(omega t), y'' = -g + A omega^2 sin(omega t), y >= 0, the
//   Newton law on y' with e. The impact times are those of q = T(t).
//
// The time discretisation has one step, [t0, t1]: the only events besides
// t1 are the impacts, as in saltus, which restarts nothing between them.
// LSODAR runs at rtol = atol = tol (itol = 1) with up to 10^6 steps per call.
//
// Each of the K repetitions builds the system and runs it (the first is a
// warm-up, not timed); the output (last line of stdout; Siconos prints on its
// own) is {"tool", "tolerance", "status", "sim_time", "cpu_s" (median process
// CPU time of the timed runs), "repetitions", "events": [{"t", "v_before",
// "v_after"}]}, the velocities relative to the obstacle. The run to profile
// under callgrind is run_once (--toggle-collect='*run_once*', --repeat 1).

#include <SiconosKernel.hpp>
#include <algorithm>
#include <boost/exception/diagnostic_information.hpp>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Impact {
  double t, v_before, v_after;
};

// F_ext's parameters: Siconos calls a plain function pointer.
struct Forcing {
  double constant = 0.0, amplitude = 0.0, omega = 0.0;
  bool sine = false;  // amplitude sin(omega t) or amplitude cos(omega t)
};
Forcing forcing;

void fext(double t, unsigned int, double* f, unsigned int, double*) {
  f[0] = forcing.constant +
         forcing.amplitude * (forcing.sine ? std::sin(forcing.omega * t) : std::cos(forcing.omega * t));
}

struct Case {
  double t0 = 0.0, t1 = 1.0;
  double q0 = 0.0, v0 = 0.0;  // in the constraint's frame
  double mass = 1.0, stiffness = 0.0, damping = 0.0;
  double gap_sign = 1.0, gap_offset = 0.0;  // gap = gap_sign q + gap_offset
  double restitution = 1.0;
};

std::string text(const nlohmann::json& j, const char* a, const char* b, const char* c) {
  return j.at(a).at(b).at(c).get<std::string>();
}

void expect(const std::string& file, const std::string& what, const std::string& got,
            const std::string& want) {
  if (got != want)
    throw std::runtime_error(
        file + ": " + what + " is \"" + got + "\", not \"" + want +
        "\": the Siconos model (bench/peer/siconos_impacts.cpp) is written for the latter");
}

Case read_case(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  const auto j = nlohmann::json::parse(in);
  const auto& p = j.at("parameters");
  Case c;
  c.t0 = j.at("time").at(0).get<double>();
  c.t1 = j.at("time").at(1).get<double>();
  if (j.value("model", "") == "bouncing_ball") {
    const double g = p.at("g"), A = p.at("A"), omega = p.at("omega");
    forcing = {-g, A * omega * omega, omega, true};
    c.q0 = j.at("initial").at("q").get<double>();              // - A sin(0)
    c.v0 = j.at("initial").at("v").get<double>() - A * omega;  // - T'(0)
    c.restitution = p.at("e");
    return c;
  }
  const auto& modes = j.at("modes");
  expect(file, "modes.free.field.x", text(modes, "free", "field", "x"), "v");
  expect(file, "modes.free.field.v", text(modes, "free", "field", "v"), "-2*zeta*v - x + F*cos(w*t)");
  const auto& guard = modes.at("free").at("guards").at(0);
  expect(file, "the guard", guard.at("h").get<std::string>(), "d - x");
  expect(file, "the reset", guard.at("reset").at("v").get<std::string>(), "-r*v");
  forcing = {0.0, p.at("F").get<double>(), p.at("w").get<double>(), false};
  c.q0 = j.at("initial").at("x").get<double>();
  c.v0 = j.at("initial").at("v").get<double>();
  c.stiffness = 1.0;
  c.damping = 2.0 * p.at("zeta").get<double>();
  c.gap_sign = -1.0;
  c.gap_offset = p.at("d").get<double>();
  c.restitution = p.at("r").get<double>();
  return c;
}

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// One run from the initial state, building everything (as a saltus run
// builds its integrator's state); stops after max_events impacts or at t1.
__attribute__((noinline)) std::vector<Impact> run_once(const Case& c, double tol, int max_events,
                                                       double* t_end) {
  auto q0 = std::make_shared<SiconosVector>(1, c.q0);
  auto v0 = std::make_shared<SiconosVector>(1, c.v0);
  auto M = std::make_shared<SimpleMatrix>(1, 1);
  (*M)(0, 0) = c.mass;
  SP::LagrangianDS ds;
  if (c.stiffness != 0.0 || c.damping != 0.0) {
    auto K = std::make_shared<SimpleMatrix>(1, 1);
    auto C = std::make_shared<SimpleMatrix>(1, 1);
    (*K)(0, 0) = c.stiffness;
    (*C)(0, 0) = c.damping;
    ds = std::make_shared<LagrangianLinearTIDS>(q0, v0, M, K, C);
  } else {
    ds = std::make_shared<LagrangianLinearTIDS>(q0, v0, M);
  }
  ds->setComputeFExtFunction(&fext);

  auto H = std::make_shared<SimpleMatrix>(1, 1);
  (*H)(0, 0) = c.gap_sign;
  auto offset = std::make_shared<SiconosVector>(1, c.gap_offset);
  auto relation = std::make_shared<LagrangianLinearTIR>(H, offset);
  auto law = std::make_shared<NewtonImpactNSL>(c.restitution);
  auto inter = std::make_shared<Interaction>(law, relation);

  auto nsds = std::make_shared<NonSmoothDynamicalSystem>(c.t0, c.t1);
  nsds->insertDynamicalSystem(ds);
  nsds->link(inter, ds);

  auto osi = std::make_shared<LsodarOSI>();
  auto td = std::make_shared<TimeDiscretisation>(c.t0, c.t1 - c.t0);
  auto sim = std::make_shared<EventDriven>(nsds, td);
  sim->insertIntegrator(osi);
  sim->associate(osi, ds);
  sim->insertNonSmoothProblem(std::make_shared<LCP>(), SICONOS_OSNSP_ED_IMPACT);
  sim->insertNonSmoothProblem(std::make_shared<LCP>(), SICONOS_OSNSP_ED_SMOOTH_ACC);
  sim->initialize();
  // LSODAR's work arrays exist once the simulation is initialized.
  osi->setTol(1, tol, tol);
  osi->setMaxNstep(1000000);

  std::vector<Impact> impacts;
  SP::EventsManager events = sim->eventsManager();
  while (sim->hasNextEvent() && static_cast<int>(impacts.size()) < max_events) {
    sim->advanceToEvent();
    const SP::Event next = events->nextEvent();
    const bool impact = next->getType() == NS_EVENT;
    const double t = next->getDoubleTimeOfEvent();
    const double v_before = c.gap_sign * (*ds->velocity())(0);
    sim->processEvents();
    if (impact) impacts.push_back({t, v_before, c.gap_sign * (*ds->velocity())(0)});
    *t_end = t;
  }
  return impacts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: saltus_peer_siconos FILE [--tol T] [--t1 T] [--max-events N] [--repeat K]\n";
    return 2;
  }
  const std::string file = argv[1];
  double tol = 1e-10, t1 = -1.0;
  int max_events = 1000000, repeat = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const double value = std::atof(argv[i + 1]);
    if (key == "--tol")
      tol = value;
    else if (key == "--t1")
      t1 = value;
    else if (key == "--max-events")
      max_events = static_cast<int>(value);
    else if (key == "--repeat")
      repeat = std::max(1, static_cast<int>(value));
    else {
      std::cerr << "unknown option " << key << "\n";
      return 2;
    }
  }
  try {
    Case c = read_case(file);
    if (t1 > 0.0) c.t1 = t1;
    std::vector<Impact> impacts;
    std::vector<double> cpu;
    double t_end = c.t0;
    // With K > 1 the first run is a warm-up (caches, the allocator). A run
    // that Siconos gives up on (LSODAR's step size collapsing at a tight
    // tolerance, say) is reported as "failed" with its message, so that the
    // comparison shows it rather than stopping.
    std::string failure;
    for (int k = 0; k < repeat && failure.empty(); ++k) {
      const double started = cpu_seconds();
      try {
        impacts = run_once(c, tol, max_events, &t_end);
      } catch (...) {
        failure = boost::current_exception_diagnostic_information();
        impacts.clear();
      }
      if (repeat == 1 || k > 0 || !failure.empty()) cpu.push_back(cpu_seconds() - started);
    }
    std::sort(cpu.begin(), cpu.end());
    nlohmann::json list = nlohmann::json::array();
    for (const auto& i : impacts)
      list.push_back({{"t", i.t}, {"v_before", i.v_before}, {"v_after", i.v_after}});
    const bool cut = static_cast<int>(impacts.size()) >= max_events;
    nlohmann::json out = {{"tool", "siconos"},
                          {"tolerance", tol},
                          {"status", !failure.empty() ? "failed"
                                     : cut            ? "max_events"
                                                      : "finished"},
                          {"message", failure},
                          {"sim_time", t_end},
                          {"cpu_s", cpu[cpu.size() / 2]},
                          {"repetitions", cpu.size()},
                          {"events", list}};
    std::cout << "\n" << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } catch (const std::exception& e) {
    std::cerr << file << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
