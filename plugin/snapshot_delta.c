#include "snapshot_delta.h"

#include <stdlib.h>
#include <string.h>

#include "jobs_text.h"

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull
#define JSON_EXACT_BITS ((1ull << 53) - 1)

static uint64_t fnv(const char *p, size_t n)
{
	uint64_t h = FNV_OFFSET;

	while (n--)
		h = (h ^ (unsigned char) *p++) * FNV_PRIME;
	return h;
}

static uint64_t state_code(const char *state)
{
	static const char *const codes[] = { "PENDING", "RUNNING", "SUSPENDED", "COMPLETING" };
	uint64_t i;

	for (i = 0; state && i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!strcmp(state, codes[i]))
			return i + 1;
	return 0;
}

uint64_t snapshot_job_sum(const struct snapshot *s)
{
	uint64_t sum = 0;
	size_t i, k;

	for (i = 0; i < s->njobs; i++) {
		const struct snap_job *j = &s->jobs[i];
		/* The task count as snapshot_json writes it. */
		const uint64_t values[] = { j->id, j->priority, j->array_tasks ? j->array_tasks : 1,
					    state_code(j->state) };
		uint64_t h = FNV_OFFSET;

		for (k = 0; k < sizeof(values) / sizeof(values[0]); k++)
			h = (h ^ values[k]) * FNV_PRIME;
		sum += h;
	}
	return sum & JSON_EXACT_BITS;
}

static int reserve_seen(struct delta_state *st, size_t n)
{
	unsigned char *seen;

	if (n > st->cap_seen) {
		if (!(seen = realloc(st->seen, n)))
			return -1;
		st->seen = seen;
		st->cap_seen = n;
	}
	memset(st->seen, 0, n);
	return 0;
}

/* Open addressing with a table at least twice the entries, a power of two. */
static int size_slots(uint32_t **slots, size_t *nslots, size_t entries)
{
	size_t n = 16;
	uint32_t *s;

	while (n < 2 * entries)
		n *= 2;
	if (n > *nslots || !*slots) {
		if (!(s = realloc(*slots, n * sizeof(*s))))
			return -1;
		*slots = s;
	}
	*nslots = n;
	memset(*slots, 0, n * sizeof(**slots));
	return 0;
}

/* ---- records kept as text: nodes, partitions, shares ---- */

static size_t kind_count(const struct snapshot *s, enum delta_record_kind kind)
{
	return kind == DELTA_NODES ? s->nnodes : kind == DELTA_PARTITIONS ? s->nparts : s->nshares;
}

static void write_key(struct snap_text *t, const struct snapshot *s, enum delta_record_kind kind, size_t i)
{
	switch (kind) {
	case DELTA_NODES:
		snap_text_string(t, s->nodes[i].name);
		break;
	case DELTA_PARTITIONS:
		snap_text_string(t, s->parts[i].name);
		break;
	default:
		snap_text_put(t, "[", 1);
		snap_text_string(t, s->shares[i].account);
		snap_text_put(t, ",", 1);
		snap_text_string(t, s->shares[i].user);
		snap_text_put(t, "]", 1);
	}
}

static void write_record(struct snap_text *t, const struct snapshot *s, enum delta_record_kind kind,
			 size_t i, snap_expand_fn expand)
{
	switch (kind) {
	case DELTA_NODES:
		snapshot_json_node(t, &s->nodes[i]);
		break;
	case DELTA_PARTITIONS:
		snapshot_json_partition(t, &s->parts[i], expand);
		break;
	default:
		snapshot_json_share(t, &s->shares[i]);
	}
}

static const char *key_of(const struct record_texts *r, size_t i)
{
	return r->text.buf + r->spans[i].key;
}

/* Writes s's records of kind into r, indexed by key. */
static int build_records(struct record_texts *r, const struct snapshot *s, enum delta_record_kind kind,
			 snap_expand_fn expand)
{
	size_t n = kind_count(s, kind), i, k;

	r->text.len = 0;
	r->text.oom = 0;
	r->n = 0;
	if (n > r->cap) {
		struct record_span *spans = realloc(r->spans, n * sizeof(*spans));
		if (!spans)
			return -1;
		r->spans = spans;
		r->cap = n;
	}
	for (i = 0; i < n && !r->text.oom; i++) {
		struct record_span *sp = &r->spans[i];

		sp->key = r->text.len;
		write_key(&r->text, s, kind, i);
		sp->key_len = r->text.len - sp->key;
		sp->rec = r->text.len;
		write_record(&r->text, s, kind, i, expand);
		sp->rec_len = r->text.len - sp->rec;
	}
	if (r->text.oom || size_slots(&r->slots, &r->nslots, n))
		return -1;
	r->n = n;
	for (i = 0; i < n; i++) {
		k = fnv(key_of(r, i), r->spans[i].key_len) & (r->nslots - 1);
		while (r->slots[k])
			k = (k + 1) & (r->nslots - 1);
		r->slots[k] = (uint32_t) i + 1;
	}
	return 0;
}

static long find_record(const struct record_texts *r, const char *key, size_t len)
{
	size_t k;

	if (!r->nslots)
		return -1;
	for (k = fnv(key, len) & (r->nslots - 1); r->slots[k]; k = (k + 1) & (r->nslots - 1)) {
		const struct record_span *sp = &r->spans[r->slots[k] - 1];
		if (sp->key_len == len && !memcmp(r->text.buf + sp->key, key, len))
			return (long) r->slots[k] - 1;
	}
	return -1;
}

/* An array member of the message, opened with its key at its first
 * element: empty arrays are left out. */
struct lazy_array {
	struct snap_text *t;
	const char *key;
	size_t n;
};

static void lazy_next(struct lazy_array *a)
{
	if (a->n++) {
		snap_text_put(a->t, ",", 1);
		return;
	}
	snap_text_put(a->t, ",\"", 2);
	snap_text_put(a->t, a->key, strlen(a->key));
	snap_text_put(a->t, "\":[", 3);
}

static void lazy_close(struct lazy_array *a)
{
	if (a->n)
		snap_text_put(a->t, "]", 1);
}

static const char *const kind_keys[DELTA_KINDS][2] = {
	{ "nodes", "nodes_removed" },
	{ "partitions", "partitions_removed" },
	{ "shares", NULL },
};

/* Shares are not keyed: a user with associations in several partitions has
 * several with the same account and user.  Any change sends them all. */
static int write_shares(struct snap_text *t, struct delta_state *st, const struct snapshot *s,
			snap_expand_fn expand, struct delta_stats *stats)
{
	const struct record_texts *sent = &st->sent[DELTA_SHARES];
	struct record_texts *next = &st->next[DELTA_SHARES];
	size_t i;

	if (build_records(next, s, DELTA_SHARES, expand))
		return -1;
	if (next->n == sent->n && next->text.len == sent->text.len &&
	    !memcmp(next->text.buf, sent->text.buf, next->text.len))
		return 0;
	snap_text_put(t, ",\"shares\":[", 11);
	for (i = 0; i < next->n; i++) {
		if (i)
			snap_text_put(t, ",", 1);
		snap_text_put(t, next->text.buf + next->spans[i].rec, next->spans[i].rec_len);
	}
	snap_text_put(t, "]", 1);
	stats->records += next->n;
	return 0;
}

static int write_record_changes(struct snap_text *t, struct delta_state *st, const struct snapshot *s,
				enum delta_record_kind kind, snap_expand_fn expand,
				struct delta_stats *stats)
{
	const struct record_texts *sent = &st->sent[kind];
	struct record_texts *next = &st->next[kind];
	struct lazy_array changed = { t, kind_keys[kind][0], 0 }, removed = { t, kind_keys[kind][1], 0 };
	size_t i;

	if (kind == DELTA_SHARES)
		return write_shares(t, st, s, expand, stats);
	if (build_records(next, s, kind, expand) || reserve_seen(st, sent->n ? sent->n : 1))
		return -1;
	for (i = 0; i < next->n; i++) {
		const struct record_span *sp = &next->spans[i];
		long p = find_record(sent, key_of(next, i), sp->key_len);

		if (p >= 0) {
			const struct record_span *old = &sent->spans[p];
			st->seen[p] = 1;
			if (old->rec_len == sp->rec_len &&
			    !memcmp(sent->text.buf + old->rec, next->text.buf + sp->rec, sp->rec_len))
				continue;
		}
		lazy_next(&changed);
		snap_text_put(t, next->text.buf + sp->rec, sp->rec_len);
		stats->records++;
	}
	lazy_close(&changed);
	for (i = 0; i < sent->n; i++) {
		if (st->seen[i])
			continue;
		lazy_next(&removed);
		snap_text_put(t, key_of(sent, i), sent->spans[i].key_len);
		stats->records_removed++;
	}
	lazy_close(&removed);
	return 0;
}

static void swap_records(struct delta_state *st)
{
	int k;

	for (k = 0; k < DELTA_KINDS; k++) {
		struct record_texts tmp = st->sent[k];
		st->sent[k] = st->next[k];
		st->next[k] = tmp;
	}
}

int snapshot_delta_note_whole(struct delta_state *st, const struct snapshot *s,
			      snap_expand_fn expand)
{
	int k;

	for (k = 0; k < DELTA_KINDS; k++)
		if (build_records(&st->next[k], s, (enum delta_record_kind) k, expand))
			return -1;
	swap_records(st);
	return 0;
}

/* ---- jobs, compared with the kept copy of the last ones ---- */

static int write_job_changes(struct snap_text *t, struct delta_state *st, const struct snapshot *now,
			     const struct snapshot *before, snap_expand_fn expand,
			     struct delta_stats *stats)
{
	struct lazy_array changed = { t, "jobs", 0 }, removed = { t, "jobs_removed", 0 };
	struct snap_text *pairs = &st->priorities;
	size_t i, hint = 0, prio, prio_end;

	if (job_index_build(&st->jobs_before, before) ||
	    reserve_seen(st, before->njobs ? before->njobs : 1))
		return -1;
	pairs->len = 0;
	pairs->oom = 0;
	for (i = 0; i < now->njobs; i++) {
		const struct snap_job *j = &now->jobs[i];
		long p = job_index_find(&st->jobs_before, before, j->id, hint);

		if (p >= 0) {
			hint = (size_t) p + 1;
			st->seen[p] = 1;
			if (jobs_text_same_but_priority(j, &before->jobs[p])) {
				if (j->priority == before->jobs[p].priority)
					continue;
				if (stats->priorities++)
					snap_text_put(pairs, ",", 1);
				snap_text_put(pairs, "[", 1);
				snap_text_integer(pairs, j->id);
				snap_text_put(pairs, ",", 1);
				snap_text_integer(pairs, j->priority);
				snap_text_put(pairs, "]", 1);
				continue;
			}
		}
		lazy_next(&changed);
		snapshot_json_job(t, j, expand, &prio, &prio_end);
		stats->jobs++;
	}
	lazy_close(&changed);
	if (pairs->oom)
		return -1;
	if (pairs->len) {
		snap_text_put(t, ",\"priorities\":[", 15);
		snap_text_put(t, pairs->buf, pairs->len);
		snap_text_put(t, "]", 1);
	}
	for (i = 0; i < before->njobs; i++) {
		if (st->seen[i])
			continue;
		lazy_next(&removed);
		snap_text_integer(t, before->jobs[i].id);
		stats->jobs_removed++;
	}
	lazy_close(&removed);
	return 0;
}

int snapshot_delta_write(struct snap_text *t, struct delta_state *st, const struct snapshot *s,
			 const struct snapshot *jobs_now, const struct snapshot *jobs_before,
			 const char *cluster, uint64_t seq, uint64_t base, int64_t now,
			 snap_expand_fn expand, struct delta_stats *stats)
{
	int k;

	memset(stats, 0, sizeof(*stats));
	t->len = 0;
	t->oom = 0;
	snapshot_json_header(t, "delta", BURST_PROTOCOL_DELTA_VERSION, cluster, seq, now);
	snap_text_put(t, ",\"base\":", 8);
	snap_text_integer(t, (int64_t) base);
	if (jobs_before && write_job_changes(t, st, jobs_now, jobs_before, expand, stats))
		goto fail;
	for (k = 0; k < DELTA_KINDS; k++)
		if (write_record_changes(t, st, s, (enum delta_record_kind) k, expand, stats))
			goto fail;
	snap_text_put(t, ",\"check\":{\"jobs\":", 17);
	snap_text_integer(t, (int64_t) jobs_now->njobs);
	snap_text_put(t, ",\"nodes\":", 9);
	snap_text_integer(t, (int64_t) s->nnodes);
	snap_text_put(t, ",\"partitions\":", 14);
	snap_text_integer(t, (int64_t) s->nparts);
	snap_text_put(t, ",\"shares\":", 10);
	snap_text_integer(t, (int64_t) s->nshares);
	snap_text_put(t, ",\"job_sum\":", 11);
	snap_text_integer(t, (int64_t) snapshot_job_sum(jobs_now));
	snap_text_put(t, "}}\n", 3);
	if (t->oom || snap_text_terminate(t))
		goto fail;
	swap_records(st);
	return 0;
fail:
	t->len = 0;
	return -1;
}

static void records_clear(struct record_texts *r)
{
	free(r->text.buf);
	free(r->spans);
	free(r->slots);
	memset(r, 0, sizeof(*r));
}

void snapshot_delta_clear(struct delta_state *st)
{
	int k;

	for (k = 0; k < DELTA_KINDS; k++) {
		records_clear(&st->sent[k]);
		records_clear(&st->next[k]);
	}
	free(st->seen);
	job_index_clear(&st->jobs_before);
	free(st->priorities.buf);
	memset(st, 0, sizeof(*st));
}
