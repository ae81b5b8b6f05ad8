#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/hostlist.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/uid.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "burst_link.h"
#include "exporter.h"
#include "jobs_text.h"
#include "node_cpus.h"
#include "node_gres.h"
#include "slurmctld_compat.h"
#include "snapshot.h"
#include "snapshot_json.h"
#include "state_stream.h"

#define LOG_PREFIX "job_submit/burst: "
/* Job changes are noticed at most this often between regular exports. */
#define CHANGE_POLL_MS 1000
/* One message per kind of trouble per this many seconds. */
#define LOG_EVERY 60
#define STOP_JOIN_SECONDS 3
#define EXPORTER_THREAD_NAME "burst_export"

struct rate_limit {
	time_t last;
	unsigned suppressed;
};

/*
 * One per started thread.  A thread that fini() had to abandon (detach)
 * keeps its own state until it exits, so a new init() never shares it.
 */
struct exporter {
	pthread_t tid;
	pthread_mutex_t mutex;  /* guards exited/abandoned */
	bool exited, abandoned;
	int wake_fd;
	volatile bool stop;
	struct burst_conf conf;
	char cluster[256];
	struct burst_advice_cache *cache;
	struct burst_link link;
	/* job_end bookkeeping: ends at end_watermark already sent, by id */
	time_t end_watermark;
	uint32_t *ends_at_watermark;
	size_t nends_at_watermark, cap_ends_at_watermark;
	struct rate_limit rl_connect, rl_drop, rl_advice, rl_wait;
	uint64_t advice_ok, advice_bad;
	/* Passes put off while burstd still read the last message, and
	 * whether the due one is. */
	uint64_t passes_waited;
	bool pass_waiting;
	double max_lock_ms;
	/* Reused every pass: its arrays and string arena keep their size, so
	 * a pass like the last one allocates nothing under the locks. */
	struct snapshot snap;
	/* One hold's job records (conf.jobs_per_lock of them). */
	job_record_t **hold_jobs;
	/* The state messages: whole snapshots and deltas, and the jobs of
	 * the last one, sent again as long as slurmctld reports no job change
	 * since the copy began (jobs_copied_at).  With them, the CPUs and
	 * memory the jobs hold per node index, which the node records do not
	 * carry. */
	struct state_stream stream;
	time_t jobs_copied_at;
	uint32_t *alloc_cpus;
	uint64_t *alloc_mem;
	int alloc_count;
	/* CPU spent writing to the socket since the last snapshot pass. */
	double write_cpu_ms;
};

/* The exporter the calling thread runs (set on thread entry). */
static __thread struct exporter *ex;
/* The exporter started by the last init(), for fini(). */
static struct exporter *current;

static bool rate_ok(struct rate_limit *rl, time_t now, unsigned *suppressed)
{
	if (rl->last && now - rl->last < LOG_EVERY) {
		rl->suppressed++;
		return false;
	}
	rl->last = now;
	*suppressed = rl->suppressed;
	rl->suppressed = 0;
	return true;
}

static int expand_hostlist(const char *expr, snap_name_fn emit, void *ctx)
{
	burst_hostlist_t hl = hostlist_create(expr);
	char *host;

	if (!hl)
		return -1;
	while ((host = hostlist_shift(hl))) {
		emit(ctx, host, strlen(host));
		free(host);
	}
	hostlist_destroy(hl);
	return 0;
}

static const char *node_base_state(uint32_t state, uint32_t cpus, uint32_t alloc)
{
	switch (state & NODE_STATE_BASE) {
	case NODE_STATE_IDLE:
		return "IDLE";
	case NODE_STATE_ALLOCATED:
	case NODE_STATE_MIXED:
		return (alloc && alloc < cpus) ? "MIXED" : "ALLOCATED";
	case NODE_STATE_DOWN:
		return "DOWN";
	case NODE_STATE_FUTURE:
		return "FUTURE";
	default:
		return "UNKNOWN";
	}
}

static unsigned node_flags(node_record_t *n)
{
	unsigned f = 0;

	if (IS_NODE_CLOUD(n))
		f |= SNAP_NODE_CLOUD;
	if (IS_NODE_POWERED_DOWN(n))
		f |= SNAP_NODE_POWERED_DOWN;
	if (IS_NODE_POWERING_UP(n))
		f |= SNAP_NODE_POWERING_UP;
	if (IS_NODE_POWERING_DOWN(n))
		f |= SNAP_NODE_POWERING_DOWN;
	if (IS_NODE_POWER_DOWN(n))
		f |= SNAP_NODE_POWER_DOWN;
	if (IS_NODE_DRAIN(n))
		f |= SNAP_NODE_DRAIN;
	if (IS_NODE_NO_RESPOND(n))
		f |= SNAP_NODE_NOT_RESPONDING;
	if (IS_NODE_COMPLETING(n))
		f |= SNAP_NODE_COMPLETING;
	if (IS_NODE_FAIL(n))
		f |= SNAP_NODE_FAIL;
	if (n->node_state & NODE_STATE_RES)
		f |= SNAP_NODE_RESERVED;
	if (IS_NODE_MAINT(n))
		f |= SNAP_NODE_MAINTENANCE;
	return f;
}

static const char *job_state(job_record_t *j)
{
	if (IS_JOB_PENDING(j))
		return "PENDING";
	if (IS_JOB_RUNNING(j))
		return "RUNNING";
	if (IS_JOB_SUSPENDED(j))
		return "SUSPENDED";
	if (IS_JOB_COMPLETING(j))
		return "COMPLETING";
	return NULL;
}

struct collect {
	struct snapshot *snap;
	job_record_t **jobs;    /* this hold's jobs, in list order */
	size_t njobs;
	uint32_t *alloc_cpus;   /* per node index, alloc_count of them */
	uint64_t *alloc_mem;
	int alloc_count;
	time_t new_watermark;
	int oom;
};

static bool end_already_sent(uint32_t id)
{
	size_t i;

	for (i = 0; i < ex->nends_at_watermark; i++)
		if (ex->ends_at_watermark[i] == id)
			return true;
	return false;
}

static void add_job_end(struct collect *c, job_record_t *j)
{
	struct snap_job_end *e;
	int status = (int) j->exit_code;

	/* A job cancelled before it ever ran says nothing about runtimes. */
	if (!j->nodes || !j->nodes[0] || !j->start_time)
		return;
	if (j->end_time < ex->end_watermark ||
	    (j->end_time == ex->end_watermark && end_already_sent(j->job_id)))
		return;
	if (!(e = snapshot_add_job_end(c->snap))) {
		c->oom = 1;
		return;
	}
	e->id = j->job_id;
	e->admin_comment = snapshot_strdup(c->snap, j->admin_comment, &c->oom);
	e->account = snapshot_strdup(c->snap, j->account, &c->oom);
	e->node_list = snapshot_strdup(c->snap, j->nodes, &c->oom);
	e->state = job_state_string(j->job_state & JOB_STATE_BASE);
	e->cpus = j->total_cpus;
	e->cpus_per_task = (!j->details || j->details->cpus_per_task == NO_VAL16 || !j->details->cpus_per_task)
				   ? 1 : j->details->cpus_per_task;
	e->end_time = j->end_time;
	e->start_time = j->start_time;
	e->eligible_time = j->details ? j->details->begin_time : 0;
	e->elapsed = j->end_time - j->start_time - j->tot_sus_time;
	if (e->elapsed < 0)
		e->elapsed = 0;
	e->exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	if (j->end_time > c->new_watermark)
		c->new_watermark = j->end_time;
}

static void add_allocation(struct collect *c, job_record_t *j)
{
	job_resources_t *r = j->job_resrcs;
	int first, last, i, k = 0;

	if (!r || !r->node_bitmap || (first = bit_ffs(r->node_bitmap)) < 0)
		return;
	last = bit_fls(r->node_bitmap);
	for (i = first; i <= last && i < c->alloc_count; i++) {
		if (!bit_test(r->node_bitmap, i))
			continue;
		if (r->cpus && k < (int) r->nhosts)
			c->alloc_cpus[i] += r->cpus[k];
		if (r->memory_allocated && k < (int) r->nhosts)
			c->alloc_mem[i] += r->memory_allocated[k];
		k++;
	}
}

#define DUP(str) snapshot_strdup(c->snap, (str), &c->oom)

static int copy_job(void *x, void *arg)
{
	job_record_t *j = x;
	struct collect *c = arg;
	burst_job_details_t *d = j->details;
	const char *state = job_state(j);
	struct snap_job *s;
	uint64_t mem;

	if (IS_JOB_FINISHED(j))
		add_job_end(c, j);
	if (IS_JOB_RUNNING(j) || IS_JOB_SUSPENDED(j))
		add_allocation(c, j);
	if (!state)
		return 0;
	if (!(s = snapshot_add_job(c->snap))) {
		c->oom = 1;
		return -1;
	}
	s->id = j->job_id;
	s->state = state;
	if (j->array_recs && j->array_recs->task_cnt && IS_JOB_PENDING(j)) {
		s->array_tasks = j->array_recs->task_cnt;
		s->array_job_id = j->array_job_id;
		s->array_task_id = -1;
	} else {
		s->array_tasks = 1;
		s->array_job_id = j->array_job_id;
		s->array_task_id = (j->array_task_id == NO_VAL) ? -1 : (int64_t) j->array_task_id;
	}
	/* Most jobs have no user_name; the uid is named after the unlock. */
	s->user = DUP(j->user_name);
	s->uid = j->user_id;
	s->account = DUP(j->account);
	s->partitions = DUP(j->partition);
	s->qos = DUP(j->qos_ptr ? j->qos_ptr->name : NULL);
	s->name = DUP(j->name);
	s->admin_comment = DUP(j->admin_comment);
	s->gres = node_gres(c->snap, j->tres_per_node, j->tres_per_task, j->tres_per_socket, j->tres_per_job,
			    &c->oom);
	s->node_list = DUP(j->nodes);
	s->reason = burst_job_reason_string(j->state_reason);
	s->priority = j->priority;
	s->start_time = j->start_time;
	s->time_limit = (j->time_limit == NO_VAL || j->time_limit == INFINITE) ?
		0 : j->time_limit * 60;
	if (d) {
		s->features = DUP(d->features);
		s->dependency = DUP(d->dependency);
		s->submit_time = d->submit_time;
		s->eligible_time = d->begin_time;
		s->cpus_per_task = (d->cpus_per_task == NO_VAL16) ? 1 : d->cpus_per_task;
		s->node_cpus = node_cpus(d->pn_min_cpus, s->cpus_per_task, d->num_tasks, d->min_cpus,
					 d->max_nodes, d->overcommit == 1);
	} else {
		s->node_cpus = 1;
	}
	if (IS_JOB_PENDING(j)) {
		s->nodes_req = d ? d->min_nodes : 0;
		s->cpus = d ? d->min_cpus : 0;
	} else {
		s->nodes_req = j->node_cnt;
		s->cpus = j->total_cpus;
	}
	mem = d ? d->pn_min_memory : 0;
	if (mem == NO_VAL64 || mem == 0) {
		s->mem_mb = 0;
		s->node_mem_mb = 0;
	} else if (mem & MEM_PER_CPU) {
		s->mem_mb = (mem & ~MEM_PER_CPU) * s->cpus;
		/* Slurm gives a node the memory of the CPUs it allocates there. */
		s->node_mem_mb = (mem & ~MEM_PER_CPU) * s->node_cpus;
	} else {
		s->mem_mb = mem * (s->nodes_req ? s->nodes_req : 1);
		s->node_mem_mb = mem;
	}
	return 0;
}

/* The job records, their details and strings are scattered over the heap;
 * copying them one after the other waits for one cache miss at a time. */
static void prefetch_record(const job_record_t *j)
{
	__builtin_prefetch(&j->job_id);
	__builtin_prefetch(&j->job_state);
	__builtin_prefetch(&j->array_recs);
	__builtin_prefetch(&j->user_name);
	__builtin_prefetch(&j->account);
	__builtin_prefetch(&j->partition);
	__builtin_prefetch(&j->qos_ptr);
	__builtin_prefetch(&j->name);
	__builtin_prefetch(&j->admin_comment);
	__builtin_prefetch(&j->tres_per_node);
	__builtin_prefetch(&j->nodes);
	__builtin_prefetch(&j->state_reason);
	__builtin_prefetch(&j->priority);
	__builtin_prefetch(&j->details);
	__builtin_prefetch(&j->total_cpus);
}

static void prefetch_pointees(const job_record_t *j)
{
	const burst_job_details_t *d = j->details;

	__builtin_prefetch(j->account);
	__builtin_prefetch(j->partition);
	__builtin_prefetch(j->name);
	__builtin_prefetch(j->admin_comment);
	__builtin_prefetch(j->user_name);
	if (j->qos_ptr)
		__builtin_prefetch(&j->qos_ptr->name);
	if (d) {
		__builtin_prefetch(&d->min_cpus);
		__builtin_prefetch(&d->pn_min_memory);
		__builtin_prefetch(&d->submit_time);
		__builtin_prefetch(&d->features);
		__builtin_prefetch(&d->dependency);
	}
}

/* How far ahead the records, and (once those are cached) what they point
 * at, are fetched. */
#define PREFETCH_RECORDS 8
#define PREFETCH_POINTEES 4

static void copy_jobs(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->njobs && !c->oom; i++) {
		if (i + PREFETCH_RECORDS < c->njobs)
			prefetch_record(c->jobs[i + PREFETCH_RECORDS]);
		if (i + PREFETCH_POINTEES < c->njobs)
			prefetch_pointees(c->jobs[i + PREFETCH_POINTEES]);
		copy_job(c->jobs[i], c);
	}
}

static const char *partition_state(uint16_t state_up)
{
	switch (state_up) {
	case PARTITION_UP:
		return "UP";
	case PARTITION_DOWN:
		return "DOWN";
	case PARTITION_DRAIN:
		return "DRAIN";
	default:
		return "INACTIVE";
	}
}

static int copy_partition(void *x, void *arg)
{
	part_record_t *p = x;
	struct collect *c = arg;
	struct snap_partition *s = snapshot_add_partition(c->snap);

	if (!s) {
		c->oom = 1;
		return -1;
	}
	s->name = DUP(p->name);
	s->nodes = DUP(p->nodes);
	s->state = partition_state(p->state_up);
	s->is_default = (p->flags & PART_FLAG_DEFAULT) ? 1 : 0;
	s->max_time = (p->max_time == INFINITE || p->max_time == NO_VAL) ? 0 : p->max_time * 60;
	s->priority_tier = p->priority_tier;
	return 0;
}

/* The classic algorithm (PriorityFlags=NO_FAIR_TREE) works a user's
 * effective and normalized usage out lazily: a decay pass leaves them unset
 * (NO_VAL) until a job's priority or sshare needs them, which fill them in
 * under the assoc read lock as this does.  Only a decay pass sets NO_VAL,
 * so the priority plugin is up whenever this calls into it (the exporter
 * starts before slurmctld initializes it). */
static void fill_in_classic_usage(slurmdb_assoc_rec_t *a)
{
	if (fuzzy_equal(a->usage->usage_efctv, NO_VAL))
		priority_g_set_assoc_usage(a);
}

/* The fair-share factor a job of this association gets.  Fair Tree stores
 * it in usage->fs_factor at every decay pass.  The classic algorithm never
 * sets that field: it computes 2^(-(U/S)/dampening) when a job's priority
 * is calculated (priority_p_calc_fs_factor), an association at
 * Fairshare=parent from its parent's U and S.  Computed here, not through
 * priority_g_calc_fs_factor, which would load the priority plugin from this
 * thread if slurmctld had not yet. */
static double fairshare_factor(slurmdb_assoc_rec_t *a)
{
	slurmdb_assoc_rec_t *fs_assoc = a;
	long double damping = slurm_conf.fs_dampening_factor ? slurm_conf.fs_dampening_factor : 1;

	if (slurm_conf.priority_flags & PRIORITY_FLAGS_FAIR_TREE)
		return a->usage->fs_factor;
	if (a->shares_raw == SLURMDB_FS_USE_PARENT && a->usage->fs_assoc_ptr)
		fs_assoc = a->usage->fs_assoc_ptr;
	fill_in_classic_usage(fs_assoc);
	if (fuzzy_equal(fs_assoc->usage->usage_efctv, NO_VAL) || fs_assoc->usage->shares_norm <= 0)
		return 0;
	return pow(2.0, (double) -((fs_assoc->usage->usage_efctv / fs_assoc->usage->shares_norm) / damping));
}

static int copy_share(void *x, void *arg)
{
	slurmdb_assoc_rec_t *a = x;
	struct collect *c = arg;
	struct snap_share *s;

	if (!a->usage)
		return 0;
	if (!(s = snapshot_add_share(c->snap))) {
		c->oom = 1;
		return -1;
	}
	s->account = DUP(a->acct);
	s->user = DUP(a->user);
	s->parent = DUP(a->user ? a->acct : a->parent_acct);
	if (!(slurm_conf.priority_flags & PRIORITY_FLAGS_FAIR_TREE))
		fill_in_classic_usage(a); /* before its usage_norm is read */
	s->fairshare_parent = a->shares_raw == SLURMDB_FS_USE_PARENT;
	s->raw_shares = s->fairshare_parent ? 0 : a->shares_raw;
	s->norm_shares = a->usage->shares_norm;
	s->raw_usage = (double) a->usage->usage_raw;
	s->norm_usage = (double) a->usage->usage_norm;
	s->fs_factor = fairshare_factor(a);
	return 0;
}

static char *node_partitions(struct collect *c, node_record_t *n)
{
	size_t len = 1, used = 0;
	char *out;
	int i;

	for (i = 0; i < n->part_cnt; i++)
		len += strlen(((part_record_t *) n->part_pptr[i])->name) + 1;
	if (!(out = snapshot_alloc(c->snap, len))) {
		c->oom = 1;
		return NULL;
	}
	out[0] = '\0';
	for (i = 0; i < n->part_cnt; i++)
		used += (size_t) snprintf(out + used, len - used, "%s%s", i ? "," : "",
					  ((part_record_t *) n->part_pptr[i])->name);
	return out;
}

static void copy_nodes(struct collect *c)
{
	node_record_t *n;
	int i;

	for (i = 0; (n = next_node(&i)); i++) {
		struct snap_node *s = snapshot_add_node(c->snap);
		if (!s) {
			c->oom = 1;
			return;
		}
		s->name = DUP(n->name);
		s->features = DUP(n->features);
		s->gres = DUP(n->gres);
		s->partitions = node_partitions(c, n);
		s->addr = DUP(n->comm_name);
		s->cpus = n->cpus;
		if ((int) n->index < c->alloc_count) {
			s->alloc_cpus = c->alloc_cpus[n->index];
			s->alloc_mem_mb = c->alloc_mem[n->index];
		}
		s->mem_mb = n->real_memory;
		s->weight = n->weight;
		s->flags = node_flags(n);
		s->state = node_base_state(n->node_state, s->cpus, s->alloc_cpus);
	}
}

/* Remembers which job ends at the newest end time were sent, so the next
 * pass neither repeats nor skips jobs that ended within the same second. */
static void note_sent_ends(struct snapshot *snap, time_t new_watermark)
{
	size_t i;

	if (new_watermark > ex->end_watermark) {
		ex->end_watermark = new_watermark;
		ex->nends_at_watermark = 0;
	}
	for (i = 0; i < snap->nends; i++) {
		if (snap->ends[i].end_time != ex->end_watermark)
			continue;
		if (ex->nends_at_watermark == ex->cap_ends_at_watermark) {
			size_t cap = ex->cap_ends_at_watermark ? ex->cap_ends_at_watermark * 2 : 64;
			uint32_t *n = realloc(ex->ends_at_watermark, cap * sizeof(*n));
			if (!n)
				return;
			ex->ends_at_watermark = n;
			ex->cap_ends_at_watermark = cap;
		}
		ex->ends_at_watermark[ex->nends_at_watermark++] = snap->ends[i].id;
	}
}

/* Everything under the locks is copying; nothing here allocates JSON or
 * touches the socket. */
static double ms_since(clockid_t clock, const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(clock, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* Wall time is what others waiting for the locks see; the thread's CPU
 * time is the work itself, which on a busy machine can be far less. */
struct cost {
	struct timespec wall0, cpu0;
	double wall_ms, cpu_ms;
};

static void cost_start(struct cost *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->wall0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c->cpu0);
}

static void cost_stop(struct cost *c)
{
	c->wall_ms = ms_since(CLOCK_MONOTONIC, &c->wall0);
	c->cpu_ms = ms_since(CLOCK_THREAD_CPUTIME_ID, &c->cpu0);
}

/* Names the users of jobs that only had a uid; needs no slurmctld lock
 * (the uid cache has its own).  Jobs of one user tend to come together. */
static int name_users(struct snapshot *snap)
{
	uint32_t last_uid = 0;
	char *last = NULL;
	int oom = 0;
	size_t i;

	for (i = 0; i < snap->njobs; i++) {
		struct snap_job *j = &snap->jobs[i];
		if (j->user)
			continue;
		if (!last || j->uid != last_uid) {
			last = snapshot_strdup(snap, uid_to_string_cached(j->uid), &oom);
			last_uid = j->uid;
		}
		j->user = last;
	}
	return oom ? -1 : 0;
}

/* What the read-lock holds of one pass cost. */
struct holds {
	unsigned count;
	double max_wall_ms, max_cpu_ms, wall_ms, cpu_ms;
};

static void hold_begin(struct cost *cost)
{
	slurmctld_lock_t read_lock = { .conf = NO_LOCK, .job = READ_LOCK,
				       .node = READ_LOCK, .part = READ_LOCK,
				       .fed = NO_LOCK };
	assoc_mgr_lock_t assoc_lock = { .assoc = READ_LOCK, .qos = READ_LOCK };

	lock_slurmctld(read_lock);
	assoc_mgr_lock(&assoc_lock);
	cost_start(cost);
}

static void hold_end(struct cost *cost, struct holds *h)
{
	slurmctld_lock_t read_lock = { .conf = NO_LOCK, .job = READ_LOCK,
				       .node = READ_LOCK, .part = READ_LOCK,
				       .fed = NO_LOCK };
	assoc_mgr_lock_t assoc_lock = { .assoc = READ_LOCK, .qos = READ_LOCK };

	cost_stop(cost);
	assoc_mgr_unlock(&assoc_lock);
	unlock_slurmctld(read_lock);
	h->count++;
	h->wall_ms += cost->wall_ms;
	h->cpu_ms += cost->cpu_ms;
	if (cost->wall_ms > h->max_wall_ms)
		h->max_wall_ms = cost->wall_ms;
	if (cost->cpu_ms > h->max_cpu_ms)
		h->max_cpu_ms = cost->cpu_ms;
}

/* Zeroed per-node allocation counters for node_record_count nodes. */
static int reset_allocations(void)
{
	if (node_record_count != ex->alloc_count) {
		uint32_t *cpus = realloc(ex->alloc_cpus, (node_record_count + 1) * sizeof(*cpus));
		uint64_t *mem;

		if (cpus)
			ex->alloc_cpus = cpus;
		mem = realloc(ex->alloc_mem, (node_record_count + 1) * sizeof(*mem));
		if (mem)
			ex->alloc_mem = mem;
		if (!cpus || !mem) {
			ex->alloc_count = 0;
			return -1;
		}
		ex->alloc_count = node_record_count;
	}
	memset(ex->alloc_cpus, 0, ex->alloc_count * sizeof(*ex->alloc_cpus));
	memset(ex->alloc_mem, 0, ex->alloc_count * sizeof(*ex->alloc_mem));
	return 0;
}

/*
 * A moment off the CPU between two holds.  slurmctld's locks are glibc
 * rwlocks, which let a reader in while a writer waits: taking the locks
 * again at once could keep a waiting writer out for the whole copy.  And a
 * thread that has just slept starts with a fresh time slice, so on a busy
 * machine the next hold is less likely to be preempted halfway, which would
 * make everyone waiting for the locks wait for the scheduler too.
 */
static void between_holds(void)
{
	struct timespec pause = { .tv_sec = 0, .tv_nsec = 1000 };

	nanosleep(&pause, NULL);
}

/* Copies the next jobs_per_lock jobs; true once the list is exhausted. */
static bool copy_job_chunk(struct collect *c, burst_list_itr_t it)
{
	job_record_t *j = NULL;

	c->njobs = 0;
	while (c->njobs < ex->conf.jobs_per_lock && (j = list_next(it)))
		c->jobs[c->njobs++] = j;
	copy_jobs(c);
	return !j;
}

/*
 * Copies jobs, nodes, partitions and shares into snap under slurmctld's
 * read locks, which are released every conf.jobs_per_lock jobs so that no
 * single hold grows with the queue.  The jobs are walked with one list
 * iterator kept across the releases: Slurm's list moves an iterator past a
 * node being removed, so a job purged between two holds is simply absent,
 * one appended is seen once, and none is seen twice.  Each job is copied
 * within one hold and so is internally consistent; the snapshot as a whole
 * is a fuzzy checkpoint of a queue that may move between holds.  Nodes,
 * partitions and shares are copied together in the last hold.
 *
 * While last_job_update (the stamp slurmctld itself uses to answer job
 * queries with "no change") is older than the second the last copy began,
 * no job changed since, so the jobs are not copied at all: *jobs_copied
 * tells the caller to send the last jobs array again.
 */
static int collect(struct snapshot *snap, struct holds *holds, bool *jobs_copied)
{
	struct collect c = { .snap = snap, .new_watermark = ex->end_watermark };
	burst_list_itr_t it = NULL;
	burst_list_t list = NULL;
	struct cost cost;

	if (!ex->hold_jobs &&
	    !(ex->hold_jobs = malloc(ex->conf.jobs_per_lock * sizeof(*ex->hold_jobs))))
		return -1;
	c.jobs = ex->hold_jobs;
	hold_begin(&cost);
	/* A clock stepped back could make later changes look older. */
	*jobs_copied = !ex->stream.jobs_valid || last_job_update >= ex->jobs_copied_at ||
		       time(NULL) < ex->jobs_copied_at ||
		       node_record_count != ex->alloc_count;
	if (*jobs_copied) {
		ex->stream.jobs_valid = false;
		ex->jobs_copied_at = time(NULL);
		list = job_list;
		if (reset_allocations() ||
		    (list && snapshot_reserve_jobs(snap, list_count(list) * 5 / 4 + 64)))
			c.oom = 1;
		else if (list)
			it = list_iterator_create(list);
	}
	c.alloc_cpus = ex->alloc_cpus;
	c.alloc_mem = ex->alloc_mem;
	c.alloc_count = ex->alloc_count;
	while (it && !c.oom && !copy_job_chunk(&c, it)) {
		hold_end(&cost, holds);
		between_holds();
		hold_begin(&cost);
		/* Only slurmctld's shutdown replaces job_list, freeing our
		 * iterator with the old one. */
		if (job_list != list) {
			it = NULL;
			c.oom = 1;
		}
	}
	if (!c.oom) {
		copy_nodes(&c);
		if (part_list)
			list_for_each(part_list, copy_partition, &c);
		if (assoc_mgr_assoc_list)
			list_for_each(assoc_mgr_assoc_list, copy_share, &c);
	}
	hold_end(&cost, holds);
	if (it)
		list_iterator_destroy(it);
	if (c.oom)
		return -1;
	if (!*jobs_copied)
		return 0;
	note_sent_ends(snap, c.new_watermark);
	return name_users(snap);
}

/* Takes ownership of line (NULL when serialization ran out of memory). */
static void queue_line(char *line, size_t len, int droppable)
{
	if (line)
		burst_link_queue(&ex->link, line, len, droppable);
	else
		ex->link.dropped++;
	free(line);
}

/* ExportSelfCheck: the array built from kept texts must be the one a fresh
 * serialization gives. */
static void check_jobs_text(const struct snapshot *snap, const struct jobs_text *t)
{
	size_t len = 0;
	char *fresh = snapshot_json_jobs(snap, expand_hostlist, &len);

	if (!fresh)
		return;
	if (len != t->text.len || memcmp(fresh, t->text.buf, len))
		error(LOG_PREFIX "self check: the jobs array built from kept job texts differs from a fresh serialization (%zu vs %zu bytes)",
		      t->text.len, len);
	free(fresh);
}

static void flush_link(time_t now);

/* A due pass waits for burstd to read what the link still holds. */
static void wait_for_reader(time_t now)
{
	unsigned suppressed;

	if (ex->pass_waiting)
		return;
	ex->pass_waiting = true;
	ex->passes_waited++;
	if (rate_ok(&ex->rl_wait, now, &suppressed))
		info(LOG_PREFIX "burstd is still reading the last message; %" PRIu64 " passes waited for it so far",
		     ex->passes_waited);
}

static void export_once(time_t now)
{
	struct snapshot *snap = &ex->snap;
	struct state_stream_stats stats;
	size_t i, len = 0;
	char *line;
	uint64_t dropped = ex->link.dropped;
	unsigned suppressed;
	struct holds holds = { 0 };
	struct cost pass_cost, serialize_cost;
	bool jobs_copied = false;

	cost_start(&pass_cost);
	snapshot_reset(snap);
	if (collect(snap, &holds, &jobs_copied)) {
		if (rate_ok(&ex->rl_drop, now, &suppressed))
			error(LOG_PREFIX "out of memory while copying slurmctld state; snapshot skipped");
		snapshot_clear(snap);
		return;
	}
	for (i = 0; i < snap->nends; i++) {
		line = snapshot_json_job_end(&snap->ends[i], ex->cluster, ++ex->link.seq,
					     now, expand_hostlist, &len);
		queue_line(line, len, 0);
	}
	/* A snapshot is only queued behind nothing: the ends go out first.
	 * Ends the socket does not take at once make the state message wait
	 * for the next pass rather than be dropped (and the next one whole);
	 * the jobs copied now are copied again then (jobs_valid is unset). */
	if (snap->nends) {
		flush_link(now);
		if (burst_link_wants_write(&ex->link)) {
			wait_for_reader(now);
			return;
		}
	}
	ex->pass_waiting = false;
	cost_start(&serialize_cost);
	len = state_stream_write(&ex->stream, snap, jobs_copied, ex->cluster, ex->link.seq + 1, now,
				 expand_hostlist, &stats);
	cost_stop(&serialize_cost);
	if (stats.jobs_text_built && ex->conf.self_check)
		check_jobs_text(&ex->stream.jobs_snap, &ex->stream.jobs_text);
	if (holds.max_wall_ms > ex->max_lock_ms)
		ex->max_lock_ms = holds.max_wall_ms;
	if (len) {
		ex->link.seq++;
		burst_link_queue_buffer(&ex->link, &ex->stream.msg.buf, len, &ex->stream.msg.cap, 1);
	} else {
		ex->link.dropped++;
	}
	state_stream_sent(&ex->stream, ex->link.seq, ex->link.dropped == dropped);
	cost_stop(&pass_cost);
	/* The numbers bench/plugin_snapshot.sh reads (SlurmctldDebug=debug). */
	debug(LOG_PREFIX "%s seq %" PRIu64 ": %zu jobs %s, %zu nodes, %zu shares; locks held %u times, longest %.3f ms (cpu %.3f ms), in all %.3f ms (cpu %.3f ms); serialized %zu bytes in %.3f ms (cpu %.3f ms); pass cpu %.3f ms; socket writes since the last pass cpu %.3f ms; %zu job texts reused, %zu serialized; delta: %zu jobs, %zu priorities, %zu jobs removed, %zu records, %zu records removed",
	      stats.kind, ex->link.seq, stats.njobs, jobs_copied ? "copied" : "unchanged",
	      snap->nnodes, snap->nshares, holds.count, holds.max_wall_ms,
	      holds.max_cpu_ms, holds.wall_ms, holds.cpu_ms, len,
	      serialize_cost.wall_ms, serialize_cost.cpu_ms, pass_cost.cpu_ms,
	      ex->write_cpu_ms, stats.reuse.reused, stats.reuse.serialized, stats.changes.jobs,
	      stats.changes.priorities, stats.changes.jobs_removed, stats.changes.records,
	      stats.changes.records_removed);
	ex->write_cpu_ms = 0;
	if (ex->link.dropped != dropped && rate_ok(&ex->rl_drop, now, &suppressed))
		info(LOG_PREFIX "burstd is not keeping up; %" PRIu64 " messages dropped so far",
		     ex->link.dropped);
}

/* Writes what the socket takes, counting the CPU it costs. */
static void flush_link(time_t now)
{
	struct cost c;

	cost_start(&c);
	burst_link_flush(&ex->link, now);
	cost_stop(&c);
	ex->write_cpu_ms += c.cpu_ms;
}

static void on_advice(void *ctx, const char *line, size_t len, int too_long)
{
	time_t now = *(time_t *) ctx;
	struct burst_advice advice;
	char err[256], reason[256];
	unsigned suppressed;
	int resync;

	if (!too_long && (resync = burst_resync_parse(line, len, ex->cluster, reason, sizeof(reason),
						      err, sizeof(err)))) {
		if (resync < 0) {
			if (rate_ok(&ex->rl_advice, now, &suppressed))
				error(LOG_PREFIX "message from burstd ignored: %s (%u similar messages suppressed)",
				      err, suppressed);
			return;
		}
		if (ex->stream.deltas)
			info(LOG_PREFIX "burstd asks for a whole snapshot: %s", reason);
		else if (ex->conf.full_snapshot_every)
			info(LOG_PREFIX "burstd reads deltas: a whole snapshot every %u deltas (FullSnapshotEvery)",
			     ex->conf.full_snapshot_every);
		else
			info(LOG_PREFIX "burstd reads deltas, but FullSnapshotEvery=0: whole snapshots only");
		state_stream_resync(&ex->stream);
		return;
	}
	if (too_long) {
		ex->advice_bad++;
		if (rate_ok(&ex->rl_advice, now, &suppressed))
			error(LOG_PREFIX "advice from burstd longer than %d bytes ignored",
			      BURST_LINK_MAX_IN_LINE);
		return;
	}
	if (burst_advice_parse(line, len, ex->cluster, &advice, err, sizeof(err))) {
		ex->advice_bad++;
		if (rate_ok(&ex->rl_advice, now, &suppressed))
			error(LOG_PREFIX "advice from burstd ignored: %s (%u similar messages suppressed)",
			      err, suppressed);
		return;
	}
	if (advice.replace) {
		ex->advice_ok++;
		debug(LOG_PREFIX "advice for %zu categories replaces the cache", advice.count);
		burst_advice_cache_replace(ex->cache, &advice);
	} else if (burst_advice_cache_merge(ex->cache, &advice)) {
		ex->advice_bad++;
		error(LOG_PREFIX "advice from burstd ignored: the cache would exceed %d categories",
		      BURST_ADVICE_MAX_ENTRIES);
	} else {
		ex->advice_ok++;
		debug(LOG_PREFIX "advice for %zu categories cached", advice.count);
	}
	burst_advice_free(&advice);
}

static void on_tick(time_t now)
{
	unsigned suppressed;
	size_t len = 0;
	char *line;

	switch (burst_link_tick(&ex->link, now)) {
	case BURST_LINK_CONNECTED:
		info(LOG_PREFIX "connected to burstd at %s", ex->conf.socket_path);
		ex->rl_connect.last = 0;
		state_stream_connected(&ex->stream);
		line = snapshot_json_hello(ex->cluster, ++ex->link.seq, now,
					   BURST_VERSION, SLURM_VERSION_STRING, &len);
		queue_line(line, len, 0);
		break;
	case BURST_LINK_CONNECT_FAILED:
		if (rate_ok(&ex->rl_connect, now, &suppressed))
			info(LOG_PREFIX "cannot connect to burstd at %s: %s; retrying with backoff (%u similar messages suppressed)",
			     ex->conf.socket_path, strerror(ex->link.last_errno), suppressed);
		break;
	case BURST_LINK_IDLE:
		break;
	}
}

static void exporter_free(struct exporter *e)
{
	burst_link_close(&e->link);
	if (e->wake_fd >= 0)
		close(e->wake_fd);
	free(e->ends_at_watermark);
	free(e->hold_jobs);
	state_stream_clear(&e->stream);
	free(e->alloc_cpus);
	free(e->alloc_mem);
	snapshot_clear(&e->snap);
	pthread_mutex_destroy(&e->mutex);
	free(e);
}

static void *exporter_main(void *arg)
{
	time_t next_export = 0, last_export = 0, seen_job_update = 0, seen_node_update = 0;
	bool abandoned;

	ex = arg;
	/* Named so operators (and tests) can find it in /proc/PID/task. */
	pthread_setname_np(pthread_self(), EXPORTER_THREAD_NAME);
	info(LOG_PREFIX "exporter started: SocketPath=%s ExportInterval=%u",
	     ex->conf.socket_path, ex->conf.export_interval);
	while (!ex->stop) {
		time_t now = time(NULL);
		struct pollfd fds[2];
		int was_connected = burst_link_connected(&ex->link), nfds = 1;

		on_tick(now);
		/* hello goes out before the first snapshot, which would
		 * otherwise be dropped behind it. */
		flush_link(now);
		if (burst_link_connected(&ex->link)) {
			bool changed = last_job_update != seen_job_update ||
				       last_node_update != seen_node_update;
			/*
			 * While burstd still reads the last message (a whole
			 * snapshot of many megabytes takes it seconds), a pass
			 * waits: its state message would be dropped, and a
			 * dropped one is followed by a whole snapshot, the
			 * largest message there is, so a burstd slower than
			 * ExportInterval would get nothing else.  The pass
			 * after the write carries every change since the last
			 * message.
			 */
			bool due = now >= next_export || (changed && now > last_export);
			if (due && burst_link_wants_write(&ex->link)) {
				wait_for_reader(now);
			} else if (due) {
				seen_job_update = last_job_update;
				seen_node_update = last_node_update;
				export_once(now);
				last_export = now;
				next_export = now + ex->conf.export_interval;
			}
			flush_link(now);
		}
		if (was_connected && !burst_link_connected(&ex->link))
			info(LOG_PREFIX "lost connection to burstd: %s", strerror(ex->link.last_errno));

		fds[0].fd = ex->wake_fd;
		fds[0].events = POLLIN;
		if (burst_link_connected(&ex->link)) {
			fds[1].fd = ex->link.fd;
			fds[1].events = POLLIN | (burst_link_wants_write(&ex->link) ? POLLOUT : 0);
			nfds = 2;
		}
		if (poll(fds, nfds, CHANGE_POLL_MS) > 0 && nfds == 2 &&
		    (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			now = time(NULL);
			if (burst_link_read(&ex->link, now, on_advice, &now))
				info(LOG_PREFIX "lost connection to burstd: %s",
				     strerror(ex->link.last_errno));
		}
	}
	info(LOG_PREFIX "exporter stopping: %" PRIu64 " messages sent, %" PRIu64 " dropped, %" PRIu64 " passes waited for burstd, %" PRIu64 " advice accepted, %" PRIu64 " rejected, longest lock hold %.3f ms",
	     ex->link.sent, ex->link.dropped, ex->passes_waited, ex->advice_ok, ex->advice_bad,
	     ex->max_lock_ms);
	pthread_mutex_lock(&ex->mutex);
	ex->exited = true;
	abandoned = ex->abandoned;
	pthread_mutex_unlock(&ex->mutex);
	if (abandoned)
		exporter_free(ex);
	return NULL;
}

int exporter_start(const struct burst_conf *conf, const char *cluster,
		   struct burst_advice_cache *cache)
{
	struct exporter *e = calloc(1, sizeof(*e));

	if (!e) {
		error(LOG_PREFIX "out of memory starting the exporter");
		return SLURM_ERROR;
	}
	e->wake_fd = -1;
	pthread_mutex_init(&e->mutex, NULL);
	e->conf = *conf;
	e->stream.full_snapshot_every = conf->full_snapshot_every;
	snprintf(e->cluster, sizeof(e->cluster), "%s", cluster ? cluster : "");
	e->cache = cache;
	/* Only jobs that end from now on are reported; older ends were
	 * reported by an earlier instance or predate the plugin. */
	e->end_watermark = time(NULL);
	burst_link_init(&e->link, conf->socket_path);
	e->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (e->wake_fd < 0) {
		error(LOG_PREFIX "eventfd: %m");
		exporter_free(e);
		return SLURM_ERROR;
	}
	if (pthread_create(&e->tid, NULL, exporter_main, e)) {
		error(LOG_PREFIX "pthread_create: %m");
		exporter_free(e);
		return SLURM_ERROR;
	}
	current = e;
	return SLURM_SUCCESS;
}

void exporter_stop(void)
{
	struct exporter *e = current;
	struct timespec deadline;
	uint64_t one = 1;
	bool joined = false;

	if (!e)
		return;
	current = NULL;
	e->stop = true;
	if (write(e->wake_fd, &one, sizeof(one)) < 0)
		error(LOG_PREFIX "waking the exporter: %m");
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += STOP_JOIN_SECONDS;
	if (!pthread_timedjoin_np(e->tid, NULL, &deadline)) {
		joined = true;
	} else {
		/* Still waiting for a lock our caller holds: it sees stop and
		 * frees its own state once the locks are released. */
		pthread_mutex_lock(&e->mutex);
		if (e->exited) {
			pthread_mutex_unlock(&e->mutex);
			pthread_join(e->tid, NULL);
			joined = true;
		} else {
			e->abandoned = true;
			pthread_detach(e->tid);
			pthread_mutex_unlock(&e->mutex);
			info(LOG_PREFIX "exporter busy at fini; detached, it exits after the locks are released");
		}
	}
	if (joined)
		exporter_free(e);
}
