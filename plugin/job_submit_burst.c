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
 * A job without a batch script (salloc, srun outside an allocation) that
 * names no QOS gets burst.conf's InteractiveQOS, when its association may use
 * it: the QOS that may preempt burstd's interactive holds (burstd.conf
 * Interactive=), with a priority that puts it first in line for their cores.
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
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
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

/* burst.conf's InteractiveQOS, "" for none; set by init() before any job_submit(). */
static char interactive_qos[BURST_CONF_MAX_QOS + 1];

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
	strcpy(interactive_qos, conf.interactive_qos);
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

static bool qos_listed(bitstr_t *qos_ids, const slurmdb_qos_rec_t *qos)
{
	return qos->id < bit_size(qos_ids) && bit_test(qos_ids, qos->id);
}

static bool partition_allows_qos(const part_record_t *part, const slurmdb_qos_rec_t *qos)
{
	if (part->allow_qos_bitstr)
		return qos_listed(part->allow_qos_bitstr, qos);
	if (part->deny_qos_bitstr)
		return !qos_listed(part->deny_qos_bitstr, qos);
	return true;
}

/*
 * Whether each partition the job names (the default one when it names none)
 * lets the QOS in: AllowQOS lists it, or DenyQOS does not (slurmctld's
 * part_policy_valid_qos).  Called under slurmctld's partition read lock.
 */
static bool partitions_allow_qos(const job_desc_msg_t *d, const slurmdb_qos_rec_t *qos)
{
	char *names, *name, *save = NULL;
	bool allowed = true;

	if (!d->partition || !d->partition[0])
		return !default_part_loc || partition_allows_qos(default_part_loc, qos);
	names = xstrdup(d->partition);
	for (name = strtok_r(names, ",", &save); name && allowed; name = strtok_r(NULL, ",", &save)) {
		part_record_t *part = find_part_record(name);

		allowed = !part || partition_allows_qos(part, qos);
	}
	xfree(names);
	return allowed;
}

/*
 * Whether slurmctld will accept the QOS for the job: it exists, the job's
 * partitions let it in, and where AccountingStorageEnforce has qos, the
 * association slurmctld validates it against (the job's account or the
 * user's default, in its first partition or the default one) lists it, as
 * job_mgr.c's _determine_and_validate_qos checks after this plugin.  What
 * this cannot find is left to slurmctld to judge.
 */
static bool qos_allowed(const job_desc_msg_t *d, const char *name)
{
	assoc_mgr_lock_t locks = { .assoc = READ_LOCK, .qos = READ_LOCK, .user = READ_LOCK };
	slurmdb_qos_rec_t qos_rec, *qos = NULL;
	slurmdb_assoc_rec_t assoc_rec, *assoc = NULL;
	char *first_partition = NULL;
	bool allowed = true;

	memset(&qos_rec, 0, sizeof(qos_rec));
	memset(&assoc_rec, 0, sizeof(assoc_rec));
	qos_rec.name = (char *) name;
	assoc_rec.uid = d->user_id;
	assoc_rec.acct = d->account;
	if (d->partition && d->partition[0]) {
		first_partition = xstrdup(d->partition);
		if (strchr(first_partition, ','))
			*strchr(first_partition, ',') = '\0';
		assoc_rec.partition = first_partition;
	} else {
		assoc_rec.partition = default_part_name;
	}
	assoc_mgr_lock(&locks);
	if (assoc_mgr_fill_in_qos(acct_db_conn, &qos_rec, accounting_enforce, &qos, true) != SLURM_SUCCESS ||
	    !qos || !partitions_allow_qos(d, qos))
		allowed = false;
	else if ((accounting_enforce & ACCOUNTING_ENFORCE_QOS) &&
		 assoc_mgr_fill_in_assoc(acct_db_conn, &assoc_rec, accounting_enforce, &assoc, true) ==
			 SLURM_SUCCESS &&
		 assoc && assoc->usage &&
		 (!assoc->usage->valid_qos || !qos_listed(assoc->usage->valid_qos, qos)))
		allowed = false;
	assoc_mgr_unlock(&locks);
	xfree(first_partition);
	return allowed;
}

/*
 * An interactive job (no batch script) naming no QOS gets InteractiveQOS,
 * and one in that QOS a priority above every other job's: Slurm gives the
 * cores a preempted hold frees to the highest-priority job that fits, not to
 * the preemptor (measured on 22.05: a waiting batch job took them), and a
 * new hold of burstd's must not take them either.
 */
#define BURST_INTERACTIVE_PRIORITY 0xFFFF0001u /* above burstd's holds (kInteractiveHoldPriority) */

static void set_interactive_qos(job_desc_msg_t *d)
{
	if (!interactive_qos[0] || d->script)
		return;
	if (!d->qos) {
		if (!qos_allowed(d, interactive_qos)) {
			debug(LOG_PREFIX "interactive job of uid %u keeps its default QOS: QOS %s does not exist or its association may not use it",
			      d->user_id, interactive_qos);
			return;
		}
		d->qos = xstrdup(interactive_qos);
	} else if (strcmp(d->qos, interactive_qos)) {
		return;
	}
	if (d->priority == NO_VAL)
		d->priority = BURST_INTERACTIVE_PRIORITY;
}

extern int job_submit(job_desc_msg_t *job_desc, uint32_t submit_uid, char **err_msg)
{
	struct burst_tags t;

	(void) submit_uid;
	if (user_tags(job_desc, &t, err_msg))
		return SLURM_ERROR;
	set_interactive_qos(job_desc);
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
