#include "app/slurm_conf_timeouts.hpp"

#include "app/config_values.hpp"
#include "app/param_map.hpp"

#include <fstream>
#include <sstream>

namespace burst {

SlurmConfTimeouts read_slurm_conf_timeouts(const std::string& path)
{
    SlurmConfTimeouts t;
    std::ifstream in(path);
    if (!in) {
        t.error = path + ": cannot be read; assuming ResumeTimeout=" + std::to_string(int(t.resume_timeout));
        return t;
    }
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::string word;
        while (words >> word) {
            auto eq = word.find('=');
            if (eq == std::string::npos || !iequals(word.substr(0, eq), "ResumeTimeout"))
                continue;
            std::string value = word.substr(eq + 1);
            auto n = parse_unsigned(value, 1u << 30);
            if (n)
                t.resume_timeout = Seconds(*n);
            else
                t.error = path + ":" + std::to_string(number) + ": ResumeTimeout=" + value +
                          ": expected whole seconds";
        }
    }
    return t;
}

} // namespace burst
