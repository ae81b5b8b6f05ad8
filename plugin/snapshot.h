/*
 * Plain copies of what the exporter takes from slurmctld under its locks.
 * Every string is either copied into the snapshot's own arena or points at
 * a static string, so it can be serialized after the locks are released.
 * The arena exists because one malloc per field made the copy, not the
 * walk, dominate the lock hold.  No Slurm headers: the JSON side is
 * unit-tested without slurmctld.
 */
#ifndef BURST_SNAPSHOT_H
#define BURST_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct snap_job {
	uint32_t id;
	uint32_t array_tasks;    /* pending tasks this record stands for */
	uint32_t array_job_id;   /* 0 unless part of an array */
	int64_t array_task_id;   /* -1 unless a single array task */
	uint32_t uid;            /* names user when user is NULL */
	char *user, *account, *partitions /* comma list */, *qos, *name;
	char *admin_comment;     /* our tags: burst, threads, category */
	char *gres, *features, *dependency;
	char *node_list;         /* Slurm hostlist expression */
	const char *reason, *state; /* static strings */
	uint32_t priority;
	int64_t submit_time, eligible_time, start_time;
	uint32_t time_limit;     /* seconds, 0 = none */
	uint32_t nodes_req, cpus, cpus_per_task;
	uint32_t node_cpus;       /* what each of its nodes must have (node_cpus.h) */
	uint64_t mem_mb;
	uint64_t node_mem_mb;     /* what each of its nodes must have, 0 = unspecified */
};

enum snap_node_flag {
	SNAP_NODE_CLOUD = 1 << 0,
	SNAP_NODE_POWERED_DOWN = 1 << 1,
	SNAP_NODE_POWERING_UP = 1 << 2,
	SNAP_NODE_POWERING_DOWN = 1 << 3,
	SNAP_NODE_POWER_DOWN = 1 << 4,
	SNAP_NODE_DRAIN = 1 << 5,
	SNAP_NODE_NOT_RESPONDING = 1 << 6,
	SNAP_NODE_COMPLETING = 1 << 7,
	SNAP_NODE_FAIL = 1 << 8,
	SNAP_NODE_RESERVED = 1 << 9,
	SNAP_NODE_MAINTENANCE = 1 << 10,
};

struct snap_node {
	char *name, *features /* comma list */, *partitions /* comma list */, *addr;
	char *gres;              /* as slurm.conf's Gres=, e.g. gpu:a100:2 */
	const char *state;       /* static */
	unsigned flags;          /* enum snap_node_flag */
	uint32_t cpus, alloc_cpus, weight;
	uint64_t mem_mb, alloc_mem_mb;
};

struct snap_partition {
	char *name, *nodes;      /* nodes: hostlist expression */
	const char *state;
	int is_default;
	uint32_t max_time;       /* seconds, 0 = unlimited */
	uint32_t priority_tier;
};

struct snap_share {
	char *account, *user, *parent;
	double raw_shares, norm_shares, raw_usage, norm_usage, fs_factor;
	int fairshare_parent; /* Fairshare=parent: raw_shares is then 0 */
};

struct snap_job_end {
	uint32_t id;
	char *admin_comment, *account, *node_list;
	const char *state;
	uint32_t cpus, cpus_per_task;
	int64_t elapsed, end_time;
	/* For burstd's wait metrics: a job that starts and ends between two
	 * snapshots is never seen running. */
	int64_t eligible_time, start_time;
	int exit_code;
};

/* Bump allocator: strings live until the snapshot is reset or cleared. */
struct snap_arena_chunk {
	struct snap_arena_chunk *next;
	size_t used, cap;
	char data[];
};

struct snapshot {
	struct snap_job *jobs;
	size_t njobs, cap_jobs;
	struct snap_node *nodes;
	size_t nnodes, cap_nodes;
	struct snap_partition *parts;
	size_t nparts, cap_parts;
	struct snap_share *shares;
	size_t nshares, cap_shares;
	struct snap_job_end *ends;
	size_t nends, cap_ends;
	struct snap_arena_chunk *arena;  /* newest chunk first */
};

/* Appends a zeroed element; NULL when out of memory. */
struct snap_job *snapshot_add_job(struct snapshot *s);
struct snap_node *snapshot_add_node(struct snapshot *s);
struct snap_partition *snapshot_add_partition(struct snapshot *s);
struct snap_share *snapshot_add_share(struct snapshot *s);
struct snap_job_end *snapshot_add_job_end(struct snapshot *s);

/* Reserves room for n jobs so the copy under the locks never reallocates
 * the array; 0 on success. */
int snapshot_reserve_jobs(struct snapshot *s, size_t n);

/*
 * Empties s but keeps its arrays and one arena chunk big enough for the
 * strings it held, so the next pass of similar size allocates nothing.
 */
void snapshot_reset(struct snapshot *s);

/* Frees every string and array; leaves s empty and reusable. */
void snapshot_clear(struct snapshot *s);

/* Copies str (NULL stays NULL) into the arena; NULL also when out of memory,
 * which sets *oom. */
char *snapshot_strdup(struct snapshot *s, const char *str, int *oom);

/* Room for len bytes in the arena; NULL when out of memory. */
char *snapshot_alloc(struct snapshot *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif
