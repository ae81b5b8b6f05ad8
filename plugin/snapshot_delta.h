/*
 * Deltas (doc/protocol.md, protocol version 2): one message with only what
 * changed since the state the plugin last sent.  Jobs, which can be a
 * hundred thousand, are compared field by field with the kept copy of the
 * last jobs (jobs_text_same_but_priority); nodes and partitions, copied
 * whole every pass and few, by their serialized text, kept per record from
 * the last message; shares as one text, all sent again when one changed.
 */
#ifndef BURST_SNAPSHOT_DELTA_H
#define BURST_SNAPSHOT_DELTA_H

#include <stddef.h>
#include <stdint.h>

#include "jobs_text.h"
#include "snapshot.h"
#include "snapshot_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where one record's key (its JSON text: "name", or ["account","user"],
 * which shares do not keep unique) and its object lie in a record_texts'
 * text. */
struct record_span {
	size_t key, key_len, rec, rec_len;
};

/* The records of one kind in a state, as text, indexed by key. */
struct record_texts {
	struct snap_text text;
	struct record_span *spans;
	size_t n, cap;
	uint32_t *slots; /* open addressing over spans by key hash, index + 1 */
	size_t nslots;
};

enum delta_record_kind { DELTA_NODES, DELTA_PARTITIONS, DELTA_SHARES, DELTA_KINDS };

struct delta_state {
	/* The last sent state's records; next is where a message builds the
	 * new state's, swapped in once it is written. */
	struct record_texts sent[DELTA_KINDS], next[DELTA_KINDS];
	/* Scratch: which records (or jobs) of the last state the new one still has. */
	unsigned char *seen;
	size_t cap_seen;
	struct job_index jobs_before;
	struct snap_text priorities; /* scratch: the [id, priority] pairs */
};

struct delta_stats {
	size_t jobs, priorities, jobs_removed, records, records_removed;
};

/* After a whole snapshot: s's nodes, partitions and shares become the last
 * sent state.  0, or -1 when out of memory or a hostlist failed to expand. */
int snapshot_delta_note_whole(struct delta_state *st, const struct snapshot *s,
			      snap_expand_fn expand);

/*
 * Writes into t (its buffer reused) the delta message seq, based on the
 * message base, that turns the last sent state into: the jobs of jobs_now,
 * compared with those of jobs_before (NULL: no job changed since), and the
 * nodes, partitions and shares of s.  The last sent state becomes the new
 * one.  0, or -1 when out of memory or a hostlist failed to expand (t is
 * then empty and the last sent state unknown: send a whole snapshot next).
 */
int snapshot_delta_write(struct snap_text *t, struct delta_state *st, const struct snapshot *s,
			 const struct snapshot *jobs_now, const struct snapshot *jobs_before,
			 const char *cluster, uint64_t seq, uint64_t base, int64_t now,
			 snap_expand_fn expand, struct delta_stats *stats);

/* doc/protocol.md's job_sum of the jobs of s. */
uint64_t snapshot_job_sum(const struct snapshot *s);

void snapshot_delta_clear(struct delta_state *st);

#ifdef __cplusplus
}
#endif
#endif
