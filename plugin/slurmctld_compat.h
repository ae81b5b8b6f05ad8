/*
 * slurmctld's internals as each Slurm release spells them, for exporter.c:
 * the only place the exporter's code depends on the release it is built for.
 * Include after slurmctld's own headers.
 *
 * Measured in the two configured source trees this project builds against,
 * 22.05.8 (Debian 12) and 24.11.5 (Debian 13); file:line below are inside
 * each tree.  The releases between are not built here: where a change first
 * appeared is said at each, with where that comes from.
 */
#ifndef BURST_SLURMCTLD_COMPAT_H
#define BURST_SLURMCTLD_COMPAT_H

#include "slurm/slurm_version.h"

/*
 * priority_g_set_assoc_usage(): 22.05 declares it in
 * src/common/slurm_priority.h:61; 23.02 moved the plugin interfaces to
 * src/interfaces/ (24.11 NEWS, 23.02.2: "the migration to interfaces"), and
 * 24.11 declares it, unchanged, in src/interfaces/priority.h:68.
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#include "src/interfaces/priority.h"
#else
#include "src/common/slurm_priority.h"
#endif

/*
 * Handles to a hostlist and to slurmctld's lists.  22.05's hostlist_t is a
 * pointer (src/common/hostlist.h:77) and its lists are List/ListIterator
 * (src/common/list.h:52,61); 24.11's hostlist_t is the struct, passed by
 * pointer (src/common/hostlist.h:86), and List/ListIterator are gone: lists
 * are list_t and list_itr_t, passed by pointer (src/common/list.h:52,61).
 * Both changes arrived in 23.11 (public build reports against 23.11.0; not
 * measured here).
 */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
typedef hostlist_t *burst_hostlist_t;
typedef list_t *burst_list_t;
typedef list_itr_t *burst_list_itr_t;
#else
typedef hostlist_t burst_hostlist_t;
typedef List burst_list_t;
typedef ListIterator burst_list_itr_t;
#endif

/*
 * A job's details record: 22.05 names it struct job_details
 * (src/slurmctld/slurmctld.h:532), 24.11 only by the typedef job_details_t of
 * an untagged struct (src/common/job_record.h:70-187).  Taken from the job
 * record itself, so no release boundary is needed.
 */
typedef __typeof__(*((job_record_t *) 0)->details) burst_job_details_t;

/*
 * A pending job's reason as text: 22.05's job_reason_string()
 * (src/common/slurm_protocol_defs.h:1645) is job_state_reason_string() in
 * 24.11 (src/common/job_state_reason.h:48).  slurmctld exports only the new
 * name, so the old one would load and then kill slurmctld on first call.
 * The first release with the new name is not determined here; 23.11 is
 * assumed.  A wrong guess shows as -Wimplicit-function-declaration (an error
 * with --enable-werror) and in plugin/check-symbols.sh.
 */
static inline const char *burst_job_reason_string(uint32_t reason)
{
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 11, 0)
	return job_state_reason_string(reason);
#else
	return job_reason_string(reason);
#endif
}

#endif
