/*
 * The exporter thread of job_submit/burst: snapshots slurmctld state under
 * read locks, serializes outside them and sends to burstd; receives advice.
 */
#ifndef BURST_EXPORTER_H
#define BURST_EXPORTER_H

#include "burst_advice.h"
#include "burst_conf.h"

/* Starts the thread; advice it receives is merged into cache. */
int exporter_start(const struct burst_conf *conf, const char *cluster,
		   struct burst_advice_cache *cache);

/*
 * Stops the thread.  Called from fini(), which runs while slurmctld holds
 * write locks, so the join is bounded: a thread still waiting for a lock is
 * detached and exits once it gets it (the .so stays mapped, RTLD_NODELETE).
 */
void exporter_stop(void);

#endif
