#pragma once
// The forecasters of bucket counts a site may choose from: one table, from
// which the factory, the known names, the "unknown forecaster" error and the
// listing all derive.  A forecaster is written NAME[,key=value...], e.g.
// "quantile,quantile=0.95,window=2w".

#include "common/registry.hpp"
#include "model/clock.hpp"
#include "policy/policy_params.hpp"
#include "policy/warm/forecasters/forecaster.hpp"

#include <memory>
#include <string>
#include <vector>

namespace burst {

struct ForecasterType {
    std::string_view name;
    std::string_view description;
    // `tick`: the seconds between two counts of the series it forecasts.
    std::unique_ptr<Forecaster> (*build)(PolicyParams& params, Seconds tick);
    std::vector<ParameterDoc> parameters; // every key build() reads
};

const Registry<ForecasterType>& forecaster_registry();
std::vector<std::string> forecaster_names();

// Builds the forecaster `spec` (NAME[,key=value...]) writes.  Throws
// PolicyConfigError starting "forecaster 'SPEC': " and saying what is
// wrong: an unknown name (with the known ones), an item that is not
// key=value, a bad value, or a key the forecaster does not read (with the
// ones it does).
std::unique_ptr<Forecaster> make_forecaster(const std::string& spec, Seconds tick);

// The --list-policies text for forecasters.
std::string forecaster_listing();

} // namespace burst
