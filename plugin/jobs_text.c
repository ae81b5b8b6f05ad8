#include "jobs_text.h"

#include <stdlib.h>
#include <string.h>

static int same_str(const char *a, const char *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	return !strcmp(a, b);
}

/* Every field job_json() reads except the priority: a field added to
 * struct snap_job and written to the text must be compared here too. */
int jobs_text_same_but_priority(const struct snap_job *a, const struct snap_job *b)
{
	return a->id == b->id && a->array_tasks == b->array_tasks &&
	       a->array_job_id == b->array_job_id && a->array_task_id == b->array_task_id &&
	       a->submit_time == b->submit_time && a->eligible_time == b->eligible_time &&
	       a->start_time == b->start_time && a->time_limit == b->time_limit &&
	       a->nodes_req == b->nodes_req && a->cpus == b->cpus &&
	       a->cpus_per_task == b->cpus_per_task && a->mem_mb == b->mem_mb &&
	       a->node_cpus == b->node_cpus && a->node_mem_mb == b->node_mem_mb &&
	       same_str(a->state, b->state) && same_str(a->reason, b->reason) &&
	       same_str(a->user, b->user) && same_str(a->account, b->account) &&
	       same_str(a->partitions, b->partitions) && same_str(a->qos, b->qos) &&
	       same_str(a->name, b->name) && same_str(a->admin_comment, b->admin_comment) &&
	       same_str(a->gres, b->gres) && same_str(a->features, b->features) &&
	       same_str(a->dependency, b->dependency) && same_str(a->node_list, b->node_list);
}

static size_t slot_of(uint32_t id, size_t nslots)
{
	return (size_t) ((id * 2654435761u) & (nslots - 1));
}

int job_index_build(struct job_index *x, const struct snapshot *s)
{
	size_t n = 16, i;

	while (n < 2 * s->njobs)
		n *= 2;
	if (n > x->nslots || !x->slots) {
		uint32_t *slots = realloc(x->slots, n * sizeof(*slots));
		if (!slots)
			return -1;
		x->slots = slots;
	}
	x->nslots = n;
	memset(x->slots, 0, n * sizeof(*x->slots));
	for (i = 0; i < s->njobs; i++) {
		size_t k = slot_of(s->jobs[i].id, n);
		while (x->slots[k])
			k = (k + 1) & (n - 1);
		x->slots[k] = (uint32_t) i + 1;
	}
	return 0;
}

long job_index_find(const struct job_index *x, const struct snapshot *s, uint32_t id, size_t hint)
{
	size_t k;

	if (hint < s->njobs && s->jobs[hint].id == id)
		return (long) hint;
	for (k = slot_of(id, x->nslots); x->slots[k]; k = (k + 1) & (x->nslots - 1))
		if (s->jobs[x->slots[k] - 1].id == id)
			return (long) x->slots[k] - 1;
	return -1;
}

void job_index_clear(struct job_index *x)
{
	free(x->slots);
	x->slots = NULL;
	x->nslots = 0;
}

/* job_index_find, indexing prev_jobs at the first job not at its hint. */
static long find(struct jobs_text *t, const struct snapshot *prev_jobs, uint32_t id,
		 size_t hint, int *indexed, int *oom)
{
	if (hint < prev_jobs->njobs && prev_jobs->jobs[hint].id == id)
		return (long) hint;
	if (!*indexed) {
		if (job_index_build(&t->index, prev_jobs)) {
			*oom = 1;
			return -1;
		}
		*indexed = 1;
	}
	return job_index_find(&t->index, prev_jobs, id, hint);
}

static int reserve_spans(struct jobs_text *t, size_t n)
{
	struct job_span *spans;

	if (n <= t->cap_spans)
		return 0;
	if (!(spans = realloc(t->spans, n * sizeof(*spans))))
		return -1;
	t->spans = spans;
	t->cap_spans = n;
	return 0;
}

int jobs_text_build(struct jobs_text *next, const struct snapshot *s,
		    const struct jobs_text *prev, const struct snapshot *prev_jobs,
		    snap_expand_fn expand, struct jobs_text_stats *stats)
{
	struct snap_text *o = &next->text;
	size_t i, hint = 0;
	int indexed = 0, oom = 0;
	/* Only a text that describes prev_jobs job for job can be reused. */
	int usable = prev && prev_jobs && prev->nspans == prev_jobs->njobs;

	stats->reused = stats->serialized = 0;
	o->len = 0;
	o->oom = 0;
	next->nspans = 0;
	if (reserve_spans(next, s->njobs)) {
		oom = 1;
		goto fail;
	}
	snap_text_put(o, "[", 1);
	for (i = 0; i < s->njobs && !o->oom && !oom; i++) {
		const struct snap_job *j = &s->jobs[i];
		struct job_span *sp = &next->spans[i];
		long p = usable ? find(next, prev_jobs, j->id, hint, &indexed, &oom) : -1;

		if (i)
			snap_text_put(o, ",", 1);
		sp->start = o->len;
		if (p >= 0 && jobs_text_same_but_priority(j, &prev_jobs->jobs[p])) {
			const struct job_span *ps = &prev->spans[p];
			snap_text_put(o, prev->text.buf + ps->start, ps->prio - ps->start);
			sp->prio = o->len;
			snap_text_integer(o, j->priority);
			sp->prio_end = o->len;
			snap_text_put(o, prev->text.buf + ps->prio_end, ps->end - ps->prio_end);
			stats->reused++;
		} else {
			snapshot_json_job(o, j, expand, &sp->prio, &sp->prio_end);
			stats->serialized++;
		}
		sp->end = o->len;
		if (p >= 0)
			hint = (size_t) p + 1;
	}
	snap_text_put(o, "]", 1);
	if (oom || o->oom || snap_text_terminate(o))
		goto fail;
	next->nspans = s->njobs;
	return 0;
fail:
	o->len = 0;
	next->nspans = 0;
	return -1;
}

void jobs_text_clear(struct jobs_text *t)
{
	free(t->text.buf);
	free(t->spans);
	job_index_clear(&t->index);
	memset(t, 0, sizeof(*t));
}
