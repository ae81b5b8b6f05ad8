#include "snapshot_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burst_category.h"
#include "burst_tags.h"

/* Everything below writes into a struct snap_text under this short name. */
#define out snap_text

static int reserve(struct out *o, size_t n)
{
	size_t cap;
	char *b;

	if (o->oom)
		return -1;
	if (o->cap - o->len >= n)
		return 0;
	/* Doubling, but never past what is asked for by more than that: a
	 * 20 MB snapshot doubled up from 4 KiB would get 32 MiB, glibc's
	 * largest mmap threshold, and so fresh pages on every pass. */
	cap = o->cap ? o->cap * 2 : 4096;
	if (cap - o->len < n)
		cap = o->len + n;
	if (!(b = realloc(o->buf, cap))) {
		o->oom = 1;
		return -1;
	}
	o->buf = b;
	o->cap = cap;
	return 0;
}

static void put(struct out *o, const char *s, size_t n)
{
	if (reserve(o, n))
		return;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

#define PUT(o, lit) put((o), (lit), sizeof(lit) - 1)
/* A key with its colon, preceded by a comma unless it opens the object. */
#define KEY(o, k) PUT((o), ",\"" k "\":")
#define FIRST_KEY(o, k) PUT((o), "{\"" k "\":")

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

static void str_n(struct out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *) s, *end = p + n;
	char *w;

	/* Worst case: every byte becomes a 6-byte \u00XX escape. */
	if (reserve(o, 6 * n + 2))
		return;
	w = o->buf + o->len;
	*w++ = '"';
	while (p < end) {
		unsigned char c = *p;
		size_t seq;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			*w++ = (char) c;
			p++;
			continue;
		}
		if (c >= 0x80) {
			if ((seq = utf8_seq(p, (size_t) (end - p)))) {
				memcpy(w, p, seq);
				w += seq;
				p += seq;
			} else {
				memcpy(w, "\xef\xbf\xbd", 3);  /* U+FFFD */
				w += 3;
				p++;
			}
			continue;
		}
		*w++ = '\\';
		switch (c) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case '\n': *w++ = 'n'; break;
		case '\r': *w++ = 'r'; break;
		case '\t': *w++ = 't'; break;
		case '\b': *w++ = 'b'; break;
		case '\f': *w++ = 'f'; break;
		default:
			*w++ = 'u'; *w++ = '0'; *w++ = '0';
			*w++ = hex[c >> 4]; *w++ = hex[c & 15];
		}
		p++;
	}
	*w++ = '"';
	o->len = (size_t) (w - o->buf);
}

static void str(struct out *o, const char *s)
{
	str_n(o, s ? s : "", s ? strlen(s) : 0);
}

static void integer(struct out *o, int64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	uint64_t u = v < 0 ? 0 - (uint64_t) v : (uint64_t) v;

	do {
		*--p = (char) ('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	put(o, p, (size_t) (tmp + sizeof(tmp) - p));
}

static void boolean(struct out *o, int v)
{
	if (v)
		PUT(o, "true");
	else
		PUT(o, "false");
}

/* Always a JSON real (".0" or an exponent), as jansson's "f" produced;
 * JSON has no NaN or infinity, so those become 0.0. */
static void real(struct out *o, double v)
{
	char tmp[40];
	int n;

	if (!isfinite(v))
		v = 0;
	n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	put(o, tmp, (size_t) n);
	if (!strpbrk(tmp, ".e"))
		PUT(o, ".0");
}

struct names {
	struct out *o;
	int n;
};

static void name_cb(void *ctx, const char *name, size_t len)
{
	struct names *a = ctx;

	if (a->n++)
		PUT(a->o, ",");
	str_n(a->o, name, len);
}

void snapshot_json_each_in_list(const char *comma_list, snap_name_fn emit, void *ctx)
{
	const char *p = comma_list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		if (len)
			emit(ctx, p, len);
		p += len;
		if (*p == ',')
			p++;
	}
}

static void list(struct out *o, const char *comma_list)
{
	struct names a = { o, 0 };

	PUT(o, "[");
	snapshot_json_each_in_list(comma_list, name_cb, &a);
	PUT(o, "]");
}

static void hosts(struct out *o, const char *hostlist, snap_expand_fn expand)
{
	struct names a = { o, 0 };

	PUT(o, "[");
	if (hostlist && *hostlist && expand(hostlist, name_cb, &a))
		o->oom = 1;
	PUT(o, "]");
}

/* Opens the message object and writes its envelope. */
static void header_v(struct out *o, const char *type, int version, const char *cluster,
		     uint64_t seq, int64_t now)
{
	FIRST_KEY(o, "v");
	integer(o, version);
	KEY(o, "type");
	str(o, type);
	KEY(o, "cluster");
	str(o, cluster);
	KEY(o, "seq");
	integer(o, (int64_t) seq);
	KEY(o, "time");
	integer(o, now);
}

static void header(struct out *o, const char *type, const char *cluster,
		   uint64_t seq, int64_t now)
{
	header_v(o, type, BURST_PROTOCOL_VERSION, cluster, seq, now);
}

static char *finish(struct out *o, size_t *len)
{
	PUT(o, "}\n");
	if (o->oom) {
		free(o->buf);
		return NULL;
	}
	*len = o->len;
	/* NUL after the newline for callers that treat it as a string. */
	if (reserve(o, 1)) {
		free(o->buf);
		return NULL;
	}
	o->buf[o->len] = '\0';
	return o->buf;
}

/* Tags written by job_submit/burst; a job it never saw has none. */
static void job_tags(const char *admin_comment, struct burst_tags *t,
		     char category[BURST_CATEGORY_TEXT_LEN])
{
	char err[128];

	if (burst_tags_parse(admin_comment, 1, t, err, sizeof(err)))
		memset(t, 0, sizeof(*t));
	if (t->has_category)
		burst_category_text(t->category, category);
	else
		category[0] = '\0';
}

static void job_json(struct out *o, const struct snap_job *j, snap_expand_fn expand,
		     size_t *prio, size_t *prio_end)
{
	struct burst_tags t;
	char category[BURST_CATEGORY_TEXT_LEN], threads[16];

	job_tags(j->admin_comment, &t, category);
	FIRST_KEY(o, "id");
	integer(o, j->id);
	KEY(o, "array_tasks");
	integer(o, j->array_tasks ? j->array_tasks : 1);
	KEY(o, "user");
	str(o, j->user);
	KEY(o, "account");
	str(o, j->account);
	KEY(o, "partitions");
	list(o, j->partitions);
	KEY(o, "qos");
	str(o, j->qos);
	KEY(o, "name");
	str(o, j->name);
	KEY(o, "category");
	str(o, category);
	KEY(o, "reason");
	str(o, j->reason);
	KEY(o, "gres");
	str(o, j->gres);
	KEY(o, "features");
	str(o, j->features);
	KEY(o, "dependency");
	str(o, j->dependency);
	KEY(o, "state");
	str(o, j->state);
	KEY(o, "priority");
	*prio = o->len;
	integer(o, j->priority);
	*prio_end = o->len;
	KEY(o, "submit_time");
	integer(o, j->submit_time);
	KEY(o, "eligible_time");
	integer(o, j->eligible_time);
	KEY(o, "start_time");
	integer(o, j->start_time);
	KEY(o, "time_limit");
	integer(o, j->time_limit);
	KEY(o, "nodes_req");
	integer(o, j->nodes_req);
	KEY(o, "cpus");
	integer(o, j->cpus);
	KEY(o, "cpus_per_task");
	integer(o, j->cpus_per_task ? j->cpus_per_task : 1);
	KEY(o, "node_cpus");
	integer(o, j->node_cpus ? j->node_cpus : j->cpus_per_task ? j->cpus_per_task : 1);
	KEY(o, "mem_mb");
	integer(o, (int64_t) j->mem_mb);
	KEY(o, "node_mem_mb");
	integer(o, (int64_t) j->node_mem_mb);
	KEY(o, "node_list");
	hosts(o, j->node_list, expand);
	KEY(o, "burst");
	str(o, burst_mode_name(t.mode));
	KEY(o, "threads");
	str(o, burst_threads_text(t.threads, threads, sizeof(threads)));
	if (t.why[0]) {
		KEY(o, "why");
		str(o, t.why);
	}
	if (t.size[0]) {
		KEY(o, "size");
		real(o, strtod(t.size, NULL));
	}
	if (j->array_job_id) {
		KEY(o, "array_job_id");
		integer(o, j->array_job_id);
		if (j->array_task_id >= 0) {
			KEY(o, "array_task_id");
			integer(o, j->array_task_id);
		}
	}
	PUT(o, "}");
}

static void node_flags(struct out *o, unsigned flags)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ SNAP_NODE_CLOUD, "CLOUD" },
		{ SNAP_NODE_POWERED_DOWN, "POWERED_DOWN" },
		{ SNAP_NODE_POWERING_UP, "POWERING_UP" },
		{ SNAP_NODE_POWERING_DOWN, "POWERING_DOWN" },
		{ SNAP_NODE_POWER_DOWN, "POWER_DOWN" },
		{ SNAP_NODE_DRAIN, "DRAIN" },
		{ SNAP_NODE_NOT_RESPONDING, "NOT_RESPONDING" },
		{ SNAP_NODE_COMPLETING, "COMPLETING" },
		{ SNAP_NODE_FAIL, "FAIL" },
		{ SNAP_NODE_RESERVED, "RESERVED" },
		{ SNAP_NODE_MAINTENANCE, "MAINTENANCE" },
	};
	size_t i;
	int n = 0;

	PUT(o, "[");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(flags & names[i].bit))
			continue;
		if (n++)
			PUT(o, ",");
		str(o, names[i].name);
	}
	PUT(o, "]");
}

static void node_json(struct out *o, const struct snap_node *n)
{
	FIRST_KEY(o, "name");
	str(o, n->name);
	KEY(o, "state");
	str(o, n->state);
	KEY(o, "flags");
	node_flags(o, n->flags);
	KEY(o, "cpus");
	integer(o, n->cpus);
	KEY(o, "alloc_cpus");
	integer(o, n->alloc_cpus);
	KEY(o, "mem_mb");
	integer(o, (int64_t) n->mem_mb);
	KEY(o, "alloc_mem_mb");
	integer(o, (int64_t) n->alloc_mem_mb);
	KEY(o, "features");
	list(o, n->features);
	KEY(o, "gres");
	str(o, n->gres);
	KEY(o, "partitions");
	list(o, n->partitions);
	KEY(o, "weight");
	integer(o, n->weight);
	KEY(o, "addr");
	str(o, n->addr);
	PUT(o, "}");
}

static void partition_json(struct out *o, const struct snap_partition *p,
			   snap_expand_fn expand)
{
	FIRST_KEY(o, "name");
	str(o, p->name);
	KEY(o, "nodes");
	hosts(o, p->nodes, expand);
	KEY(o, "state");
	str(o, p->state);
	KEY(o, "default");
	boolean(o, p->is_default);
	KEY(o, "max_time");
	integer(o, p->max_time);
	KEY(o, "priority_tier");
	integer(o, p->priority_tier);
	PUT(o, "}");
}

static void share_json(struct out *o, const struct snap_share *s)
{
	FIRST_KEY(o, "account");
	str(o, s->account);
	KEY(o, "user");
	str(o, s->user);
	KEY(o, "parent");
	str(o, s->parent);
	KEY(o, "raw_shares");
	real(o, s->raw_shares);
	KEY(o, "fairshare_parent");
	boolean(o, s->fairshare_parent);
	KEY(o, "norm_shares");
	real(o, s->norm_shares);
	KEY(o, "raw_usage");
	real(o, s->raw_usage);
	KEY(o, "norm_usage");
	real(o, s->norm_usage);
	KEY(o, "fs_factor");
	real(o, s->fs_factor);
	PUT(o, "}");
}

char *snapshot_json_hello(const char *cluster, uint64_t seq, int64_t now,
			  const char *plugin_version, const char *slurm_version,
			  size_t *len)
{
	struct out o = { 0 };

	header(&o, "hello", cluster, seq, now);
	KEY(&o, "plugin_version");
	str(&o, plugin_version);
	KEY(&o, "slurm_version");
	str(&o, slurm_version);
	KEY(&o, "versions");
	PUT(&o, "[");
	integer(&o, BURST_PROTOCOL_VERSION);
	PUT(&o, ",");
	integer(&o, BURST_PROTOCOL_DELTA_VERSION);
	PUT(&o, "]");
	return finish(&o, len);
}

char *snapshot_json_jobs(const struct snapshot *s, snap_expand_fn expand, size_t *len)
{
	struct out o = { 0 };
	size_t i;

	/* A typical job takes about 500 bytes; one allocation in the
	 * common case. */
	reserve(&o, 64 + 512 * s->njobs);
	PUT(&o, "[");
	for (i = 0; i < s->njobs; i++) {
		size_t prio, prio_end;

		if (i)
			PUT(&o, ",");
		job_json(&o, &s->jobs[i], expand, &prio, &prio_end);
	}
	PUT(&o, "]");
	if (reserve(&o, 1)) {
		free(o.buf);
		return NULL;
	}
	o.buf[o.len] = '\0';
	*len = o.len;
	return o.buf;
}

static void snapshot_body(struct out *o, const struct snapshot *s, const char *jobs_json,
			  size_t jobs_len, const char *cluster, uint64_t seq, int64_t now,
			  snap_expand_fn expand)
{
	size_t i;

	reserve(o, 1024 + jobs_len + 384 * s->nnodes + 256 * s->nshares);
	header(o, "snapshot", cluster, seq, now);
	KEY(o, "jobs");
	put(o, jobs_json, jobs_len);
	KEY(o, "nodes");
	PUT(o, "[");
	for (i = 0; i < s->nnodes; i++) {
		if (i)
			PUT(o, ",");
		node_json(o, &s->nodes[i]);
	}
	PUT(o, "]");
	KEY(o, "partitions");
	PUT(o, "[");
	for (i = 0; i < s->nparts; i++) {
		if (i)
			PUT(o, ",");
		partition_json(o, &s->parts[i], expand);
	}
	PUT(o, "]");
	KEY(o, "shares");
	PUT(o, "[");
	for (i = 0; i < s->nshares; i++) {
		if (i)
			PUT(o, ",");
		share_json(o, &s->shares[i]);
	}
	PUT(o, "]");
}

char *snapshot_json_snapshot_with_jobs(const struct snapshot *s, const char *jobs_json,
				       size_t jobs_len, const char *cluster, uint64_t seq,
				       int64_t now, snap_expand_fn expand, size_t *len)
{
	struct out o = { 0 };

	snapshot_body(&o, s, jobs_json, jobs_len, cluster, seq, now, expand);
	return finish(&o, len);
}

int snapshot_json_snapshot_into(struct snap_text *t, const struct snapshot *s,
				const char *jobs_json, size_t jobs_len, const char *cluster,
				uint64_t seq, int64_t now, snap_expand_fn expand)
{
	t->len = 0;
	t->oom = 0;
	snapshot_body(t, s, jobs_json, jobs_len, cluster, seq, now, expand);
	PUT(t, "}\n");
	if (t->oom || snap_text_terminate(t)) {
		t->len = 0;
		return -1;
	}
	return 0;
}

char *snapshot_json_snapshot(const struct snapshot *s, const char *cluster,
			     uint64_t seq, int64_t now, snap_expand_fn expand,
			     size_t *len)
{
	size_t jobs_len;
	char *jobs = snapshot_json_jobs(s, expand, &jobs_len), *line;

	if (!jobs)
		return NULL;
	line = snapshot_json_snapshot_with_jobs(s, jobs, jobs_len, cluster, seq, now,
						expand, len);
	free(jobs);
	return line;
}

char *snapshot_json_job_end(const struct snap_job_end *e, const char *cluster,
			    uint64_t seq, int64_t now, snap_expand_fn expand,
			    size_t *len)
{
	struct out o = { 0 };
	struct burst_tags t;
	char category[BURST_CATEGORY_TEXT_LEN];

	job_tags(e->admin_comment, &t, category);
	header(&o, "job_end", cluster, seq, now);
	KEY(&o, "id");
	integer(&o, e->id);
	KEY(&o, "category");
	str(&o, category);
	KEY(&o, "account");
	str(&o, e->account);
	KEY(&o, "cpus");
	integer(&o, e->cpus);
	KEY(&o, "cpus_per_task");
	integer(&o, e->cpus_per_task ? e->cpus_per_task : 1);
	if (t.size[0]) {
		KEY(&o, "size");
		real(&o, strtod(t.size, NULL));
	}
	KEY(&o, "elapsed");
	integer(&o, e->elapsed);
	KEY(&o, "exit_code");
	integer(&o, e->exit_code);
	KEY(&o, "node_list");
	hosts(&o, e->node_list, expand);
	KEY(&o, "end_time");
	integer(&o, e->end_time);
	KEY(&o, "eligible_time");
	integer(&o, e->eligible_time);
	KEY(&o, "start_time");
	integer(&o, e->start_time);
	KEY(&o, "state");
	str(&o, e->state);
	return finish(&o, len);
}

void snap_text_put(struct snap_text *t, const char *s, size_t n)
{
	put(t, s, n);
}

void snap_text_integer(struct snap_text *t, int64_t v)
{
	integer(t, v);
}

int snap_text_terminate(struct snap_text *t)
{
	if (reserve(t, 1))
		return -1;
	t->buf[t->len] = '\0';
	return 0;
}

void snapshot_json_job(struct snap_text *t, const struct snap_job *j, snap_expand_fn expand,
		       size_t *prio, size_t *prio_end)
{
	job_json(t, j, expand, prio, prio_end);
}

void snap_text_string(struct snap_text *t, const char *s)
{
	str(t, s);
}

void snapshot_json_header(struct snap_text *t, const char *type, int version,
			  const char *cluster, uint64_t seq, int64_t now)
{
	header_v(t, type, version, cluster, seq, now);
}

void snapshot_json_node(struct snap_text *t, const struct snap_node *n)
{
	node_json(t, n);
}

void snapshot_json_partition(struct snap_text *t, const struct snap_partition *p,
			     snap_expand_fn expand)
{
	partition_json(t, p, expand);
}

void snapshot_json_share(struct snap_text *t, const struct snap_share *s)
{
	share_json(t, s);
}
