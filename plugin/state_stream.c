#include "state_stream.h"

#include <stdlib.h>
#include <string.h>

void state_stream_connected(struct state_stream *st)
{
	st->deltas = 0;
	st->want_whole = 1;
}

void state_stream_resync(struct state_stream *st)
{
	st->deltas = 1;
	st->want_whole = 1;
}

/* The array just built (next_text, from snap's jobs) becomes the kept one:
 * snap and jobs_snap trade places, so the next pass copies into the older
 * one's memory. */
static void keep_jobs(struct state_stream *st, struct snapshot *snap, int with_text)
{
	struct snapshot older = st->jobs_snap;

	if (with_text) {
		struct jobs_text t = st->jobs_text;
		st->jobs_text = st->next_text;
		st->next_text = t;
	}
	st->jobs_snap = *snap;
	*snap = older;
	st->jobs_valid = 1;
	st->jobs_text_current = with_text;
}

/* The jobs array of a whole snapshot: from snap's fresh copy, or the kept
 * text, rewritten if a delta left it behind.  NULL when out of memory. */
static const struct jobs_text *whole_jobs_text(struct state_stream *st, struct snapshot *snap,
					       int jobs_copied, snap_expand_fn expand,
					       struct state_stream_stats *stats)
{
	const struct jobs_text *prev = st->jobs_text_current ? &st->jobs_text : NULL;

	if (jobs_copied) {
		if (jobs_text_build(&st->next_text, snap, prev, prev ? &st->jobs_snap : NULL, expand,
				    &stats->reuse))
			return NULL;
		keep_jobs(st, snap, 1);
		stats->jobs_text_built = 1;
		return &st->jobs_text;
	}
	if (!st->jobs_valid)
		return NULL;
	if (!st->jobs_text_current) {
		struct jobs_text t;

		if (jobs_text_build(&st->next_text, &st->jobs_snap, NULL, NULL, expand, &stats->reuse))
			return NULL;
		t = st->jobs_text;
		st->jobs_text = st->next_text;
		st->next_text = t;
		st->jobs_text_current = 1;
		stats->jobs_text_built = 1;
	}
	return &st->jobs_text;
}

static int delta_due(const struct state_stream *st)
{
	return st->deltas && !st->want_whole && st->full_snapshot_every &&
	       st->deltas_since_whole < st->full_snapshot_every;
}

size_t state_stream_write(struct state_stream *st, struct snapshot *snap, int jobs_copied,
			  const char *cluster, uint64_t seq, int64_t now, snap_expand_fn expand,
			  struct state_stream_stats *stats)
{
	const struct jobs_text *jobs;
	/* After keep_jobs the pass's nodes travel with its jobs. */
	const struct snapshot *rest;

	memset(stats, 0, sizeof(*stats));
	st->wrote_whole = 0;
	stats->njobs = jobs_copied ? snap->njobs : st->jobs_snap.njobs;
	if (delta_due(st)) {
		int failed;

		stats->kind = "delta";
		failed = snapshot_delta_write(&st->msg, &st->delta, snap,
					      jobs_copied ? snap : &st->jobs_snap,
					      jobs_copied ? &st->jobs_snap : NULL, cluster, seq,
					      st->state_seq, now, expand, &stats->changes);
		if (jobs_copied)
			keep_jobs(st, snap, 0);
		if (failed)
			return 0;
		st->deltas_since_whole++;
		return st->msg.len;
	}
	stats->kind = "snapshot";
	if (!(jobs = whole_jobs_text(st, snap, jobs_copied, expand, stats)))
		return 0;
	rest = jobs_copied ? &st->jobs_snap : snap;
	if (snapshot_json_snapshot_into(&st->msg, rest, jobs->text.buf, jobs->text.len, cluster, seq,
					now, expand))
		return 0;
	if (st->deltas && st->full_snapshot_every && snapshot_delta_note_whole(&st->delta, rest, expand))
		return 0;
	st->wrote_whole = 1;
	return st->msg.len;
}

void state_stream_sent(struct state_stream *st, uint64_t seq, int queued)
{
	if (!queued) {
		st->want_whole = 1;
		return;
	}
	st->state_seq = seq;
	if (st->wrote_whole) {
		st->want_whole = 0;
		st->deltas_since_whole = 0;
	}
}

void state_stream_clear(struct state_stream *st)
{
	jobs_text_clear(&st->jobs_text);
	jobs_text_clear(&st->next_text);
	snapshot_clear(&st->jobs_snap);
	snapshot_delta_clear(&st->delta);
	free(st->msg.buf);
	memset(st, 0, sizeof(*st));
}
