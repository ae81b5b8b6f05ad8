/*
 * The state messages of one plugin (doc/protocol.md): each pass's copy of
 * slurmctld's state becomes a whole snapshot or, once burstd has asked for
 * them on the connection, a delta against the last message queued.  Free of
 * Slurm headers, so the unit tests drive it exactly as the exporter does.
 */
#ifndef BURST_STATE_STREAM_H
#define BURST_STATE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "jobs_text.h"
#include "snapshot.h"
#include "snapshot_delta.h"
#include "snapshot_json.h"

#ifdef __cplusplus
extern "C" {
#endif

struct state_stream {
	unsigned full_snapshot_every; /* deltas between whole snapshots; 0 = none */
	/*
	 * The jobs of the last message (jobs_snap), and their array as text
	 * (jobs_text) while jobs_text_current: sent again as long as
	 * slurmctld reports no job change, and the source of the next
	 * array's unchanged jobs.  The exporter clears jobs_valid when it
	 * starts a copy (a failed copy leaves it clear).  next_text is where
	 * the next array is written.
	 */
	struct jobs_text jobs_text, next_text;
	struct snapshot jobs_snap;
	int jobs_valid, jobs_text_current;
	/* burstd asked for deltas on this connection (a resync); want_whole
	 * until the next whole snapshot is queued; state_seq is the seq of
	 * the last state message queued, the next delta's base; delta holds
	 * the nodes, partitions and shares that message described. */
	int deltas, want_whole, wrote_whole;
	uint64_t state_seq;
	unsigned deltas_since_whole;
	struct delta_state delta;
	/* The message, written into a buffer that alternates with the link's
	 * own (burst_link_queue_buffer), so that megabytes are neither copied
	 * again nor written into fresh pages every pass. */
	struct snap_text msg;
};

struct state_stream_stats {
	const char *kind;           /* "snapshot" or "delta" */
	size_t njobs;               /* jobs the message describes */
	int jobs_text_built;        /* a whole snapshot wrote jobs_text anew */
	struct jobs_text_stats reuse;
	struct delta_stats changes;
};

/* A new connection: whole snapshots until burstd asks for deltas. */
void state_stream_connected(struct state_stream *st);

/* burstd's resync: a whole snapshot next, deltas after it. */
void state_stream_resync(struct state_stream *st);

/*
 * Writes this pass's state message, seq, into st->msg.  snap is the pass's
 * copy; its jobs count only if jobs_copied (else the jobs of the last
 * message stand).  snap may come back holding an older copy's memory.
 * Returns the message's length, or 0 when it could not be written.  Call
 * state_stream_sent after queueing it (or not).
 */
size_t state_stream_write(struct state_stream *st, struct snapshot *snap, int jobs_copied,
			  const char *cluster, uint64_t seq, int64_t now, snap_expand_fn expand,
			  struct state_stream_stats *stats);

/* Message seq was queued on the link, or lost (never written, or dropped):
 * after a loss only a whole snapshot brings burstd's state back. */
void state_stream_sent(struct state_stream *st, uint64_t seq, int queued);

void state_stream_clear(struct state_stream *st);

#ifdef __cplusplus
}
#endif
#endif
