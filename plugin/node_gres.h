/*
 * The generic resources every node of a job must have, from the four
 * places Slurm keeps what a job asks (--gres and --gpus-per-node in
 * tres_per_node, --gpus-per-task, --gpus-per-socket, --gpus): burstd routes
 * a job only to node groups whose nodes hold it.  No Slurm headers: unit-
 * tested without slurmctld.
 */
#ifndef BURST_NODE_GRES_H
#define BURST_NODE_GRES_H

#include "snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Comma-joined, into s's arena: the per-node, per-task and per-socket gres
 * entries (a node running one task, or using one socket, needs that many),
 * then each per-job entry with its count made 1 (the job's GPUs may be
 * spread one to a node), all in 22.05's form "gres:NAME[:TYPE][:COUNT]".
 * Slurm 23.02 and later write "gres/NAME[:TYPE]:COUNT", and per task
 * "gres/NAME[:TYPE]=COUNT" beside entries that are no generic resource
 * ("cpu=2", "license/x=1"): those are left out.  NULL when the job asks
 * none; NULL with *oom set when the arena is out of memory.
 */
char *node_gres(struct snapshot *s, const char *per_node, const char *per_task, const char *per_socket,
		const char *per_job, int *oom);

#ifdef __cplusplus
}
#endif

#endif
