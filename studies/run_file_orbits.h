#pragma once
// The orbit blocks of a `saltus continue` run file (studies/run_file.h):
// "periodic" (the shooting problem over the run file's ODE), "hopf_cycles"
// (the cycles born at a Hopf point) and the user "events" of both. Each
// reader checks its keys and values and fails (studies/json_input.h) naming
// the file, the key and what to do.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "studies/run_file.h"

namespace saltus::studies {

// The two unknowns of an orbit figure (`where`.phase), default the first two.
std::vector<std::string> read_phase(const Json& object, const std::vector<std::string>& unknowns,
                                    const std::filesystem::path& path, const std::string& where);

// A list of user events {name, expression, stop} over `names`; names unique.
std::vector<UserEvent> read_events(const Json& events, const std::vector<std::string>& names,
                                   const std::filesystem::path& path, const std::string& key);

// The "hopf_cycles" object, over the equations read as rates.
HopfCycles read_hopf_cycles(const Json& object, const std::vector<std::string>& unknowns,
                            const std::vector<std::string>& parameters,
                            const std::vector<std::string>& equations, const ContinuationOptions& base,
                            const std::string& parameter, const std::filesystem::path& path);

// The "periodic" object: the shooting problem over the ODE `ode` with the
// continuation parameter `carried` in its state (the others keep the run
// file's values), so the variational equations carry d/d(carried) alone.
// run->start_state holds the unknowns' start values and becomes the
// shooting state (x, T); run->parameters, all values (named *parameters) on
// entry, becomes the carried parameter's value, and *parameters its name.
void read_periodic(const Json& object, const std::shared_ptr<const flow::HybridSystem>& ode,
                   const std::string& carried, const std::filesystem::path& path,
                   const std::vector<std::string>& unknowns, std::vector<std::string>* parameters,
                   RunFile* run);

}  // namespace saltus::studies
