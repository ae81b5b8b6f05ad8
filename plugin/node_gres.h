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
 * Comma-joined, into s's arena: the per-node, per-task and per-socket
 * entries as Slurm writes them (a node running one task, or using one
 * socket, needs that many), then each per-job entry with its count made 1
 * (the job's GPUs may be spread one to a node).  NULL when the job asks
 * none; NULL with *oom set when the arena is out of memory.
 */
char *node_gres(struct snapshot *s, const char *per_node, const char *per_task, const char *per_socket,
		const char *per_job, int *oom);

#ifdef __cplusplus
}
#endif

#endif
