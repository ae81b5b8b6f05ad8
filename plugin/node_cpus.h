/*
 * The CPUs every node of a job must have.  burstd routes a job only to node
 * groups whose nodes could hold its share: not only one task's CPUs, but
 * Slurm's per-node minimum (--ntasks-per-node × --cpus-per-task, --mincpus)
 * and, when the job may not spread (-N1 -n16), all its tasks over its most
 * nodes.  No Slurm headers: unit-tested without slurmctld.
 */
#ifndef BURST_NODE_CPUS_H
#define BURST_NODE_CPUS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * From a pending job's details as slurmctld keeps them: pn_min_cpus (which
 * slurmctld has already raised to cpus_per_task, and to cpus_per_task ×
 * ntasks_per_node), cpus_per_task, num_tasks (0 = not given), min_cpus,
 * max_nodes (0, NO_VAL or INFINITE = as many as it likes) and overcommit
 * (--overcommit: tasks share CPUs, so they ask no CPUs of their own).  At
 * least 1.
 */
uint32_t node_cpus(uint32_t pn_min_cpus, uint32_t cpus_per_task, uint32_t num_tasks, uint32_t min_cpus,
		   uint32_t max_nodes, int overcommit);

#ifdef __cplusplus
}
#endif

#endif
