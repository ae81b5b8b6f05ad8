#include "node_cpus.h"

/* slurm.h's NO_VAL, without its headers; INFINITE is above it. */
#define UNSET_U32 0xfffffffe

static uint32_t ceil_div(uint32_t a, uint32_t b)
{
	return a / b + (a % b != 0);
}

uint32_t node_cpus(uint32_t pn_min_cpus, uint32_t cpus_per_task, uint32_t num_tasks, uint32_t min_cpus,
		   uint32_t max_nodes, int overcommit)
{
	uint32_t per_node = pn_min_cpus > cpus_per_task ? pn_min_cpus : cpus_per_task;

	if (max_nodes && max_nodes < UNSET_U32 && !overcommit) {
		/* Tasks are not split across nodes: the fullest node gets the
		 * rounded-up share of them, each with all its CPUs. */
		uint64_t spread = (num_tasks && num_tasks < UNSET_U32) ?
			(uint64_t) ceil_div(num_tasks, max_nodes) * (cpus_per_task ? cpus_per_task : 1) :
			ceil_div(min_cpus, max_nodes);
		if (spread > UINT32_MAX)
			spread = UINT32_MAX;
		if (spread > per_node)
			per_node = (uint32_t) spread;
	}
	return per_node ? per_node : 1;
}
