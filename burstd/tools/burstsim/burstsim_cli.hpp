#pragma once
// burstsim's command line: parse, replay, print.  Kept out of main() so the
// tests can drive it with argument vectors and string streams.

#include <ostream>
#include <string>
#include <vector>

namespace burst {

// Returns the process exit status: 0 success, 1 the run failed (unreadable
// trace, bad site), 2 bad command line or --config file.
int burstsim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace burst
