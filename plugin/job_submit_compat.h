/*
 * The job_submit plugin entry points as each Slurm release calls them: the
 * only place job_submit_burst.c depends on the release it is built for.
 *
 * job_modify() gained a fourth argument, char **err_msg, the text
 * slurmctld returns to whoever asked for the update: 22.05 calls it with
 * three (src/slurmctld/job_submit.c:61-62), 24.11 with four
 * (src/interfaces/job_submit.c:63-64, from update_job, job_mgr.c:12392).
 * It arrived in 23.02 (24.11 NEWS, 23.02.0rc1: job_submit/lua's log_user()
 * from slurm_job_modify()).  A three-argument job_modify() would still run on
 * 24.11, unable to answer; a four-argument one on 22.05 would write through
 * an undefined pointer.
 *
 * BURST_JOB_MODIFY(fn) defines job_modify() for the release built against
 * as a call of
 *   int fn(job_desc_msg_t *, job_record_t *, uint32_t submit_uid, char **err_msg)
 * with err_msg NULL where the release has none.
 */
#ifndef BURST_JOB_SUBMIT_COMPAT_H
#define BURST_JOB_SUBMIT_COMPAT_H

#include "slurm/slurm_version.h"

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(23, 2, 0)
#define BURST_JOB_MODIFY(fn)                                                        \
	extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,      \
			      uint32_t submit_uid, char **err_msg)                  \
	{                                                                           \
		return fn(job_desc, job_ptr, submit_uid, err_msg);                  \
	}
#else
#define BURST_JOB_MODIFY(fn)                                                        \
	extern int job_modify(job_desc_msg_t *job_desc, job_record_t *job_ptr,      \
			      uint32_t submit_uid)                                  \
	{                                                                           \
		return fn(job_desc, job_ptr, submit_uid, NULL);                     \
	}
#endif

#endif
