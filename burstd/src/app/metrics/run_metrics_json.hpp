#pragma once
// The run metrics as the status object's "run_metrics" member, for
// `burstctl status` (status_text.cpp prints it).

#include "app/metrics/run_metrics_feed.hpp"

#include <jansson.h>

#include <optional>

namespace burst {

// A new reference.  `lambda` = ObjectiveLambda=; without it there is no J.
json_t* run_metrics_json(const RunMetricsFeed& feed, std::optional<double> lambda);

} // namespace burst
