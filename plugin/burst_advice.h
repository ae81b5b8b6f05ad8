/*
 * Thread-count advice from burstd ("advice" messages, doc/protocol.md) and
 * the cache job_submit consults for --threads=auto jobs; and burstd's
 * requests for a whole snapshot ("resync"), which come on the same line.  A message is
 * validated whole before anything is cached: one bad entry rejects it.
 */
#ifndef BURST_ADVICE_H
#define BURST_ADVICE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Caps that keep a hostile or broken burstd from growing slurmctld. */
#define BURST_ADVICE_MAX_ENTRIES 65536

struct burst_advice_entry {
	uint64_t category;
	int threads;
};

struct burst_advice {
	struct burst_advice_entry *entries; /* sorted by category, unique */
	size_t count;
	int replace; /* the message is burstd's whole table: it replaces the cache */
};

/*
 * Validates one received line as an advice message for cluster.  On success
 * returns 0 and fills out (free with burst_advice_free); otherwise -1 and err
 * names the field and what was expected.
 */
int burst_advice_parse(const char *line, size_t len, const char *cluster,
		       struct burst_advice *out, char *err, size_t errlen);

void burst_advice_free(struct burst_advice *advice);

/*
 * burstd's other message on the same connection: a request for a whole
 * snapshot (doc/protocol.md, resync).  Returns 1 for a well-formed resync
 * for cluster (its reason, truncated, in reason), 0 for a line that is no
 * resync (take it as advice), -1 for a resync with a bad field (err says
 * which).
 */
int burst_resync_parse(const char *line, size_t len, const char *cluster, char *reason,
		       size_t reasonlen, char *err, size_t errlen);

struct burst_advice_cache {
	pthread_mutex_t mutex;
	struct burst_advice table;
};

void burst_advice_cache_init(struct burst_advice_cache *cache);
void burst_advice_cache_clear(struct burst_advice_cache *cache);

/* Newer advice wins per category.  -1 (cache unchanged) if the result would
 * exceed BURST_ADVICE_MAX_ENTRIES or memory runs out. */
int burst_advice_cache_merge(struct burst_advice_cache *cache,
			     const struct burst_advice *advice);

/* The cache becomes advice (whose entries it takes over; advice is left empty). */
void burst_advice_cache_replace(struct burst_advice_cache *cache, struct burst_advice *advice);

/* Threads advised for category, or 0 if none. */
int burst_advice_cache_lookup(struct burst_advice_cache *cache, uint64_t category);

#ifdef __cplusplus
}
#endif
#endif
