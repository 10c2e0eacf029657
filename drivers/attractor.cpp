#include "drivers/attractor.h"

#include "drivers/grid_runner.h"

namespace saltus::drivers {

Settled settle(const flow::HybridSystem& system, const StartState& start, double transient, double record,
               const flow::SimulationOptions& plain, const std::vector<flow::Section>& sections) {
  Settled s;
  s.end = start;
  try {
    if (transient > 0) {
      const flow::Trajectory warm =
          flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + transient, plain);
      s.events += static_cast<int>(warm.events.size());
      if (!warm.ok()) {
        s.failure = warm.message;
        return s;
      }
      s.end = {warm.mode_end, warm.t_end, warm.x_end};
    }
    const flow::Trajectory rec =
        flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + record, plain, {}, sections);
    s.events += static_cast<int>(rec.events.size());
    s.hits = rec.section_hits;
    if (!rec.ok())
      s.failure = rec.message;
    else
      s.end = {rec.mode_end, rec.t_end, rec.x_end};
  } catch (const std::exception& e) {
    s.failure = e.what();
  }
  return s;
}

void put_state(const StartState& s, Json* record) {
  (*record)["mode"] = s.mode;
  (*record)["t"] = json_double(s.t);
  Json x = Json::array();
  for (int i = 0; i < s.x.size(); ++i) x.push_back(json_double(s.x[i]));
  (*record)["x"] = x;
}

StartState state_of(const Json& record) {
  StartState s;
  s.mode = record.at("mode").get<int>();
  s.t = double_of(record.at("t"));
  const Json& x = record.at("x");
  s.x.resize(static_cast<int>(x.size()));
  for (int i = 0; i < s.x.size(); ++i) s.x[i] = double_of(x[i]);
  return s;
}

void check_state(const Json& record, int modes, int dimension, bool start) {
  record::integer(record, "mode", 0, modes - 1);
  record::real(record::field(record, "t"), "t", start);
  const Json& x = record::array(record::field(record, "x"), "x", dimension);
  for (int i = 0; i < dimension; ++i) record::real(x[i], "x[" + std::to_string(i) + "]", start);
}

}  // namespace saltus::drivers
