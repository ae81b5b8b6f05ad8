// burstsim: replay a workload trace through a burst policy (see burstsim(1)).
#include "app/heap_tuning.hpp"
#include "tools/burstsim/burstsim_cli.hpp"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    burst::keep_cycle_buffers_in_heap();
    return burst::burstsim_main(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
