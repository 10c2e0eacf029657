#include "studies/settled_record.h"

#include "studies/grid_runner.h"

namespace saltus::studies {

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

}  // namespace saltus::studies
