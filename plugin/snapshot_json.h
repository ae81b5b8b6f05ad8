/*
 * Serializes snapshots, job_end events and hello messages as single lines of
 * JSON per doc/protocol.md.  Each function returns a malloc'd, newline
 * terminated line and its length, or NULL when out of memory.
 */
#ifndef BURST_SNAPSHOT_JSON_H
#define BURST_SNAPSHOT_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BURST_PROTOCOL_VERSION 1

/* Appends the node names of a hostlist expression to array; 0 on success. */
typedef int (*snap_expand_fn)(const char *hostlist, json_t *array);

char *snapshot_json_hello(const char *cluster, uint64_t seq, int64_t now,
			  const char *plugin_version, const char *slurm_version,
			  size_t *len);
char *snapshot_json_snapshot(const struct snapshot *s, const char *cluster,
			     uint64_t seq, int64_t now, snap_expand_fn expand,
			     size_t *len);
char *snapshot_json_job_end(const struct snap_job_end *e, const char *cluster,
			    uint64_t seq, int64_t now, snap_expand_fn expand,
			    size_t *len);

/* Splits a comma separated list into array (NULL/"" adds nothing). */
void snapshot_json_add_list(json_t *array, const char *comma_list);

#ifdef __cplusplus
}
#endif
#endif
