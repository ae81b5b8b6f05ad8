/*
 * The jobs array of the last snapshot, kept as text together with where each
 * job's object and its priority lie in it, so that the next snapshot
 * serializes only the jobs that changed.
 *
 * A job of the new copy whose fields all equal those of the job with the same
 * id in the copy the kept text was written from has its object copied from
 * that text; only its priority, which slurmctld recomputes for every pending
 * job each PriorityCalcPeriod, is written anew.  The text of a job is a pure
 * function of its struct snap_job, so equal fields give equal text and the
 * array is byte for byte what snapshot_json_jobs() writes.  Values are
 * compared, not pointers or timestamps: a string freed and replaced may get
 * the same address, and slurmctld changes many job fields without any
 * per-job stamp.
 */
#ifndef BURST_JOBS_TEXT_H
#define BURST_JOBS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"
#include "snapshot_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Offsets in the text: the object is [start, end), its priority's digits
 * [prio, prio_end). */
struct job_span {
	size_t start, prio, prio_end, end;
};

/* A copy's jobs by id: open addressing over their index + 1 (0 = empty). */
struct job_index {
	uint32_t *slots;
	size_t nslots;
};

/* Indexes the jobs of s; 0, or -1 when out of memory. */
int job_index_build(struct job_index *x, const struct snapshot *s);

/* Index in s (which x indexes) of the job with id, or -1.  Jobs keep their
 * order in slurmctld's list, so hint (the one after the last found) is
 * tried first. */
long job_index_find(const struct job_index *x, const struct snapshot *s, uint32_t id, size_t hint);

void job_index_clear(struct job_index *x);

struct jobs_text {
	struct snap_text text;   /* "[...]", NUL terminated */
	struct job_span *spans;  /* one per job of the copy it was written from */
	size_t nspans, cap_spans;
	/* Scratch: the previous copy's jobs by id, built only when jobs
	 * moved in the list. */
	struct job_index index;
};

struct jobs_text_stats {
	size_t reused, serialized;
};

/*
 * Writes the jobs of s into next as one JSON array, reusing the text of prev
 * (written from prev_jobs; either may be empty).  next's buffers are reused;
 * next must not be prev.  Returns 0, or -1 when out of memory or a hostlist
 * failed to expand (next is then empty).
 */
int jobs_text_build(struct jobs_text *next, const struct snapshot *s,
		    const struct jobs_text *prev, const struct snapshot *prev_jobs,
		    snap_expand_fn expand, struct jobs_text_stats *stats);

/* 1 when a and b serialize to the same text apart from the priority. */
int jobs_text_same_but_priority(const struct snap_job *a, const struct snap_job *b);

void jobs_text_clear(struct jobs_text *t);

#ifdef __cplusplus
}
#endif
#endif
