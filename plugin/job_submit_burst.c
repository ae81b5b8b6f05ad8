/*
 * job_submit/burst (JobSubmitPlugins=burst).
 *
 * At submit: reads the user's burst and thread choices -- SPANK options
 * (spank_burst passes them as BURST_MODE= and BURST_THREADS= in the job's
 * spank_job_env) or "burst:"/"threads:" words in --comment -- rejects invalid
 * ones, computes the job's category and records all three on AdminComment
 * ("burst:prefer threads:auto category:<16 hex>"), which the exporter reads
 * back.  --threads=N sets CPUs per task; --threads=auto takes burstd's cached
 * advice for the category when there is some.
 * At update: a new --comment changes the burst/threads words; an
 * AdminComment of "why:" words only is burstd's reason for a pending job.
 * At init: reads burst.conf and starts the exporter thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"
#include "src/common/log.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "burst_advice.h"
#include "burst_category.h"
#include "burst_conf.h"
#include "burst_tags.h"
#include "exporter.h"
#include "job_submit_compat.h"

const char plugin_name[] = "slurm-burst job submit plugin";
const char plugin_type[] = "job_submit/burst";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

#define LOG_PREFIX "job_submit/burst: "
#define SPANK_MODE_VAR "BURST_MODE="
#define SPANK_THREADS_VAR "BURST_THREADS="
#define SPANK_SIZE_VAR "BURST_SIZE="

/* Static mutex: an exporter abandoned by an earlier fini() may still use it. */
static struct burst_advice_cache advice_cache = { PTHREAD_MUTEX_INITIALIZER, { NULL, 0, 0 } };

static void conf_warning(void *ctx, const char *msg)
{
	(void) ctx;
	error(LOG_PREFIX "%s", msg);
}

extern int init(void)
{
	struct burst_conf conf;
	char path[4096];
	Dl_info dli;

	/* The exporter thread's code must stay mapped even if fini() has to
	 * leave it running (see exporter_stop). */
	if (dladdr((void *) init, &dli) && dli.dli_fname)
		(void) dlopen(dli.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);

	if (burst_conf_path_for(slurm_conf.slurm_conf, path, sizeof(path))) {
		error(LOG_PREFIX "slurm.conf path too long; using burst.conf defaults");
		burst_conf_defaults(&conf);
	} else if (burst_conf_load(path, &conf, conf_warning, NULL)) {
		error(LOG_PREFIX "%s has problems (logged above); those settings keep their defaults",
		      path);
	}
	burst_advice_cache_clear(&advice_cache);
	/* Tagging jobs does not need burstd, so a failed start is logged, not fatal. */
	if (exporter_start(&conf, slurm_conf.cluster_name, &advice_cache))
		error(LOG_PREFIX "exporter not running; jobs are still tagged");
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	exporter_stop();
	return SLURM_SUCCESS;
}

static const char *spank_value(const job_desc_msg_t *d, const char *var)
{
	size_t len = strlen(var);
	uint32_t i;

	for (i = 0; d->spank_job_env && i < d->spank_job_env_size; i++)
		if (d->spank_job_env[i] && !strncmp(d->spank_job_env[i], var, len))
			return d->spank_job_env[i] + len;
	return NULL;
}

/* The user's choices; SPANK options win over --comment words. */
static int user_tags(const job_desc_msg_t *d, struct burst_tags *t, char **err_msg)
{
	const char *mode = spank_value(d, SPANK_MODE_VAR);
	const char *threads = spank_value(d, SPANK_THREADS_VAR);
	const char *size = spank_value(d, SPANK_SIZE_VAR);
	char err[256];
	double value;

	if (burst_tags_parse(d->comment, 0, t, err, sizeof(err))) {
		*err_msg = xstrdup_printf("slurm-burst: --comment: %s", err);
		return -1;
	}
	if (mode && burst_parse_mode(mode, &t->mode, err, sizeof(err))) {
		*err_msg = xstrdup_printf("slurm-burst: --%s", err);
		return -1;
	}
	if (threads && burst_parse_threads(threads, &t->threads, err, sizeof(err))) {
		*err_msg = xstrdup_printf("slurm-burst: --%s", err);
		return -1;
	}
	if (size) {
		if (burst_parse_size(size, &value, err, sizeof(err))) {
			*err_msg = xstrdup_printf("slurm-burst: --burst-%s", err);
			return -1;
		}
		snprintf(t->size, sizeof(t->size), "%s", size);
	}
	return 0;
}

static void set_cpus_per_task(job_desc_msg_t *d, uint16_t threads)
{
	uint32_t tasks = (d->num_tasks == NO_VAL || !d->num_tasks) ? 1 : d->num_tasks;

	d->cpus_per_task = threads;
	/* slurmctld does not derive the CPU totals from cpus_per_task. */
	if (d->min_cpus == NO_VAL || d->min_cpus < tasks * threads)
		d->min_cpus = tasks * threads;
	if (d->pn_min_cpus == NO_VAL16 || d->pn_min_cpus < threads)
		d->pn_min_cpus = threads;
}

/*
 * An auto job whose user also gave -c keeps that count and is recorded with
 * it (threads:N), so burstd never changes what the user chose.
 */
static int apply_threads(job_desc_msg_t *d, struct burst_tags *t,
			 uint64_t category, char **err_msg)
{
	bool user_set_cpt = d->cpus_per_task != NO_VAL16 && d->cpus_per_task;
	int advised;

	if (t->threads > 0) {
		if (user_set_cpt && d->cpus_per_task != t->threads) {
			*err_msg = xstrdup_printf("slurm-burst: --threads=%d conflicts with --cpus-per-task=%u; give one of them",
						  t->threads, (unsigned) d->cpus_per_task);
			return -1;
		}
		set_cpus_per_task(d, (uint16_t) t->threads);
	} else if (t->threads == BURST_THREADS_AUTO && user_set_cpt) {
		t->threads = d->cpus_per_task <= BURST_THREADS_MAX ?
			     (int) d->cpus_per_task : BURST_THREADS_UNSET;
	} else if (t->threads == BURST_THREADS_AUTO) {
		advised = burst_advice_cache_lookup(&advice_cache, category);
		if (advised > 0) {
			set_cpus_per_task(d, (uint16_t) advised);
			debug(LOG_PREFIX "threads=auto: %d CPUs per task from burstd's advice",
			      advised);
		}
	}
	return 0;
}

static int record_tags(char **admin_comment, const struct burst_tags *t)
{
	char *text = burst_tags_admin_comment(t, *admin_comment);

	if (!text)
		return -1;
	xfree(*admin_comment);
	*admin_comment = xstrdup(text);
	free(text);
	return 0;
}

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid, char **err_msg)
{
	struct burst_tags t;

	(void) submit_uid;
	if (user_tags(job_desc, &t, err_msg))
		return SLURM_ERROR;
	t.category = burst_category(job_desc->account, job_desc->name, job_desc->script);
	t.has_category = 1;
	if (apply_threads(job_desc, &t, t.category, err_msg))
		return SLURM_ERROR;
	if (record_tags(&job_desc->admin_comment, &t)) {
		error(LOG_PREFIX "out of memory tagging a job; submitted untagged");
		return SLURM_SUCCESS;
	}
	return SLURM_SUCCESS;
}

/* Tells the user why an update was refused, where slurmctld asks (err_msg). */
static void answer_update(char **err_msg, const char *what, const char *err)
{
	if (!err_msg)
		return;
	xfree(*err_msg);
	*err_msg = xstrdup_printf("slurm-burst: %s: %s", what, err);
}

/*
 * A new --comment may change the burst/threads/size words; the category stays
 * (the script is not at hand) and CPU counts are left to burstd's actuator.
 * Runs with the job write lock held, so the job record is updated directly.
 */
static int modify_job(job_desc_msg_t *job_desc, job_record_t *job_ptr, uint32_t submit_uid,
		      char **err_msg)
{
	struct burst_tags old, changed;
	char err[256];

	(void) submit_uid;
	if (!job_desc->comment && !job_desc->admin_comment)
		return SLURM_SUCCESS;
	if (burst_tags_parse(job_ptr->admin_comment, 1, &old, err, sizeof(err)))
		memset(&old, 0, sizeof(old));
	if (burst_tags_parse(job_desc->comment, 0, &changed, err, sizeof(err))) {
		error(LOG_PREFIX "%pJ: update rejected: --comment: %s", job_ptr, err);
		answer_update(err_msg, "--comment", err);
		return SLURM_ERROR;
	}
	if (changed.mode != BURST_MODE_UNSET)
		old.mode = changed.mode;
	if (changed.threads != BURST_THREADS_UNSET)
		old.threads = changed.threads;
	if (changed.size[0])
		memcpy(old.size, changed.size, sizeof(old.size));
	/*
	 * burstd's reason: an AdminComment of why: words only replaces the
	 * job's why: word ("why:" clears it) and keeps every other word.
	 */
	if (burst_tags_only_why(job_desc->admin_comment)) {
		struct burst_tags reason;
		char *text;

		if (burst_tags_parse(job_desc->admin_comment, 1, &reason, err, sizeof(err))) {
			error(LOG_PREFIX "%pJ: update rejected: AdminComment: %s", job_ptr, err);
			answer_update(err_msg, "AdminComment", err);
			return SLURM_ERROR;
		}
		memcpy(old.why, reason.why, sizeof(old.why));
		text = burst_tags_admin_comment(&old, job_ptr->admin_comment);
		if (!text)
			return SLURM_ERROR;
		xfree(job_desc->admin_comment);
		job_desc->admin_comment = xstrdup(text);
		free(text);
		return SLURM_SUCCESS;
	}
	/* An administrator replacing AdminComment keeps our words in it. */
	if (job_desc->admin_comment)
		return record_tags(&job_desc->admin_comment, &old) ? SLURM_ERROR : SLURM_SUCCESS;
	return record_tags(&job_ptr->admin_comment, &old) ? SLURM_ERROR : SLURM_SUCCESS;
}

BURST_JOB_MODIFY(modify_job)
