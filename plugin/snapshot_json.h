/*
 * Serializes snapshots, job_end events and hello messages as single lines of
 * JSON per doc/protocol.md.  Each function returns a malloc'd, newline
 * terminated line and its length, or NULL when out of memory.
 *
 * The text is written straight into one growing buffer instead of building
 * a jansson tree: a tree costs several allocations per field, which made a
 * 20k-job snapshot cost a sizeable fraction of an `squeue --json`.  Strings
 * are escaped per RFC 8259; bytes that are not valid UTF-8 become U+FFFD, so
 * a job name in some other encoding cannot make the whole line unparsable.
 */
#ifndef BURST_SNAPSHOT_JSON_H
#define BURST_SNAPSHOT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of hello, snapshot and job_end; deltas came with the next. */
#define BURST_PROTOCOL_VERSION 1
#define BURST_PROTOCOL_DELTA_VERSION 2

/* A growing text buffer; once oom is set every write is a no-op. */
struct snap_text {
	char *buf;
	size_t len, cap;
	int oom;
};

void snap_text_put(struct snap_text *t, const char *s, size_t n);
void snap_text_integer(struct snap_text *t, int64_t v);
/* A JSON string (NULL writes ""). */
void snap_text_string(struct snap_text *t, const char *s);
/* NUL after the text (not counted in len); 0 unless out of memory. */
int snap_text_terminate(struct snap_text *t);

/* Receives one name (len bytes, not NUL terminated). */
typedef void (*snap_name_fn)(void *ctx, const char *name, size_t len);

/* Calls emit for each node name of a hostlist expression; 0 on success. */
typedef int (*snap_expand_fn)(const char *hostlist, snap_name_fn emit, void *ctx);

char *snapshot_json_hello(const char *cluster, uint64_t seq, int64_t now,
			  const char *plugin_version, const char *slurm_version,
			  size_t *len);
char *snapshot_json_snapshot(const struct snapshot *s, const char *cluster,
			     uint64_t seq, int64_t now, snap_expand_fn expand,
			     size_t *len);

/*
 * A snapshot in two steps, so that the jobs array (nearly all of a big
 * snapshot) can be kept and sent again while slurmctld reports no job
 * change: snapshot_json_jobs writes s's jobs as one JSON array (malloc'd,
 * NUL terminated, no newline), snapshot_json_snapshot_with_jobs writes the
 * message around such an array and s's nodes, partitions and shares (s's
 * jobs are not looked at).  snapshot_json_snapshot is both in one.
 */
char *snapshot_json_jobs(const struct snapshot *s, snap_expand_fn expand, size_t *len);
char *snapshot_json_snapshot_with_jobs(const struct snapshot *s, const char *jobs_json,
				       size_t jobs_len, const char *cluster, uint64_t seq,
				       int64_t now, snap_expand_fn expand, size_t *len);
/* snapshot_json_snapshot_with_jobs into t, whose buffer is reused (and
 * kept on failure, with len 0); 0 unless out of memory or a hostlist failed
 * to expand. */
int snapshot_json_snapshot_into(struct snap_text *t, const struct snapshot *s,
				const char *jobs_json, size_t jobs_len, const char *cluster,
				uint64_t seq, int64_t now, snap_expand_fn expand);

/* Appends one job's object as snapshot_json_jobs writes it; *prio and
 * *prio_end get where the digits of its priority begin and end in t. */
void snapshot_json_job(struct snap_text *t, const struct snap_job *j, snap_expand_fn expand,
		       size_t *prio, size_t *prio_end);

/* Opens a message object of type with its envelope (v, type, cluster, seq,
 * time); the caller writes the rest and closes it. */
void snapshot_json_header(struct snap_text *t, const char *type, int version,
			  const char *cluster, uint64_t seq, int64_t now);

/* One node, partition or share object as snapshots write them. */
void snapshot_json_node(struct snap_text *t, const struct snap_node *n);
void snapshot_json_partition(struct snap_text *t, const struct snap_partition *p,
			     snap_expand_fn expand);
void snapshot_json_share(struct snap_text *t, const struct snap_share *s);

char *snapshot_json_job_end(const struct snap_job_end *e, const char *cluster,
			    uint64_t seq, int64_t now, snap_expand_fn expand,
			    size_t *len);

/* Calls emit for each non-empty word of a comma separated list (NULL/""
 * calls nothing). */
void snapshot_json_each_in_list(const char *comma_list, snap_name_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
