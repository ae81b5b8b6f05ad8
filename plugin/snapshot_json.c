#include "snapshot_json.h"

#include <stdlib.h>
#include <string.h>

#include "burst_category.h"
#include "burst_tags.h"

static const char *nz(const char *s)
{
	return s ? s : "";
}

static json_t *header(const char *type, const char *cluster, uint64_t seq, int64_t now)
{
	return json_pack("{s:i, s:s, s:s, s:I, s:I}", "v", BURST_PROTOCOL_VERSION,
			 "type", type, "cluster", nz(cluster), "seq", (json_int_t) seq,
			 "time", (json_int_t) now);
}

static char *finish(json_t *msg, size_t *len)
{
	char *text, *line;
	size_t n;

	if (!msg)
		return NULL;
	text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!text)
		return NULL;
	n = strlen(text);
	line = realloc(text, n + 2);
	if (!line) {
		free(text);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	*len = n + 1;
	return line;
}

void snapshot_json_add_list(json_t *array, const char *comma_list)
{
	const char *p = comma_list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		if (len)
			json_array_append_new(array, json_stringn(p, len));
		p += len;
		if (*p == ',')
			p++;
	}
}

static json_t *list(const char *comma_list)
{
	json_t *a = json_array();

	snapshot_json_add_list(a, comma_list);
	return a;
}

static json_t *hosts(const char *hostlist, snap_expand_fn expand)
{
	json_t *a = json_array();

	if (hostlist && *hostlist)
		expand(hostlist, a);
	return a;
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

static json_t *job_json(const struct snap_job *j, snap_expand_fn expand)
{
	struct burst_tags t;
	char category[BURST_CATEGORY_TEXT_LEN], threads[16];
	json_t *o;

	job_tags(j->admin_comment, &t, category);
	o = json_pack("{s:I, s:I, s:s, s:s, s:o, s:s, s:s, s:s, s:s, s:s, s:s, s:s,"
		      " s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:s, s:s}",
		      "id", (json_int_t) j->id,
		      "array_tasks", (json_int_t) (j->array_tasks ? j->array_tasks : 1),
		      "user", nz(j->user), "account", nz(j->account),
		      "partitions", list(j->partitions),
		      "qos", nz(j->qos), "name", nz(j->name), "category", category,
		      "reason", nz(j->reason), "gres", nz(j->gres),
		      "features", nz(j->features), "dependency", nz(j->dependency),
		      "state", nz(j->state),
		      "priority", (json_int_t) j->priority,
		      "submit_time", (json_int_t) j->submit_time,
		      "eligible_time", (json_int_t) j->eligible_time,
		      "start_time", (json_int_t) j->start_time,
		      "time_limit", (json_int_t) j->time_limit,
		      "nodes_req", (json_int_t) j->nodes_req,
		      "cpus", (json_int_t) j->cpus,
		      "cpus_per_task", (json_int_t) (j->cpus_per_task ? j->cpus_per_task : 1),
		      "mem_mb", (json_int_t) j->mem_mb,
		      "node_list", hosts(j->node_list, expand),
		      "burst", burst_mode_name(t.mode),
		      "threads", burst_threads_text(t.threads, threads, sizeof(threads)));
	if (o && j->array_job_id) {
		json_object_set_new(o, "array_job_id", json_integer(j->array_job_id));
		if (j->array_task_id >= 0)
			json_object_set_new(o, "array_task_id", json_integer(j->array_task_id));
	}
	return o;
}

static json_t *node_flags(unsigned flags)
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
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].bit)
			json_array_append_new(a, json_string(names[i].name));
	return a;
}

static json_t *node_json(const struct snap_node *n)
{
	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:I, s:s}",
			 "name", nz(n->name), "state", nz(n->state),
			 "flags", node_flags(n->flags),
			 "cpus", (json_int_t) n->cpus,
			 "alloc_cpus", (json_int_t) n->alloc_cpus,
			 "mem_mb", (json_int_t) n->mem_mb,
			 "alloc_mem_mb", (json_int_t) n->alloc_mem_mb,
			 "features", list(n->features),
			 "partitions", list(n->partitions),
			 "weight", (json_int_t) n->weight, "addr", nz(n->addr));
}

static json_t *partition_json(const struct snap_partition *p, snap_expand_fn expand)
{
	return json_pack("{s:s, s:o, s:s, s:b, s:I, s:I}",
			 "name", nz(p->name), "nodes", hosts(p->nodes, expand),
			 "state", nz(p->state), "default", p->is_default,
			 "max_time", (json_int_t) p->max_time,
			 "priority_tier", (json_int_t) p->priority_tier);
}

static json_t *share_json(const struct snap_share *s)
{
	return json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f}",
			 "account", nz(s->account), "user", nz(s->user),
			 "parent", nz(s->parent), "raw_shares", s->raw_shares,
			 "norm_shares", s->norm_shares, "raw_usage", s->raw_usage,
			 "norm_usage", s->norm_usage, "fs_factor", s->fs_factor);
}

/* json_array_append_new that notices an element json_pack could not build. */
static int append(json_t *array, json_t *elem)
{
	return elem ? json_array_append_new(array, elem) : -1;
}

char *snapshot_json_hello(const char *cluster, uint64_t seq, int64_t now,
			  const char *plugin_version, const char *slurm_version,
			  size_t *len)
{
	json_t *msg = header("hello", cluster, seq, now);

	if (msg) {
		json_object_set_new(msg, "plugin_version", json_string(nz(plugin_version)));
		json_object_set_new(msg, "slurm_version", json_string(nz(slurm_version)));
	}
	return finish(msg, len);
}

char *snapshot_json_snapshot(const struct snapshot *s, const char *cluster,
			     uint64_t seq, int64_t now, snap_expand_fn expand,
			     size_t *len)
{
	json_t *msg = header("snapshot", cluster, seq, now);
	json_t *jobs = json_array(), *nodes = json_array(), *parts = json_array(),
	       *shares = json_array();
	int rc = (msg && jobs && nodes && parts && shares) ? 0 : -1;
	size_t i;

	for (i = 0; !rc && i < s->njobs; i++)
		rc = append(jobs, job_json(&s->jobs[i], expand));
	for (i = 0; !rc && i < s->nnodes; i++)
		rc = append(nodes, node_json(&s->nodes[i]));
	for (i = 0; !rc && i < s->nparts; i++)
		rc = append(parts, partition_json(&s->parts[i], expand));
	for (i = 0; !rc && i < s->nshares; i++)
		rc = append(shares, share_json(&s->shares[i]));
	if (rc) {
		json_decref(msg);
		json_decref(jobs);
		json_decref(nodes);
		json_decref(parts);
		json_decref(shares);
		return NULL;
	}
	json_object_set_new(msg, "jobs", jobs);
	json_object_set_new(msg, "nodes", nodes);
	json_object_set_new(msg, "partitions", parts);
	json_object_set_new(msg, "shares", shares);
	return finish(msg, len);
}

char *snapshot_json_job_end(const struct snap_job_end *e, const char *cluster,
			    uint64_t seq, int64_t now, snap_expand_fn expand,
			    size_t *len)
{
	json_t *msg = header("job_end", cluster, seq, now);
	struct burst_tags t;
	char category[BURST_CATEGORY_TEXT_LEN];

	if (!msg)
		return NULL;
	job_tags(e->admin_comment, &t, category);
	json_object_set_new(msg, "id", json_integer(e->id));
	json_object_set_new(msg, "category", json_string(category));
	json_object_set_new(msg, "account", json_string(nz(e->account)));
	json_object_set_new(msg, "cpus", json_integer(e->cpus));
	json_object_set_new(msg, "elapsed", json_integer(e->elapsed));
	json_object_set_new(msg, "exit_code", json_integer(e->exit_code));
	json_object_set_new(msg, "node_list", hosts(e->node_list, expand));
	json_object_set_new(msg, "end_time", json_integer(e->end_time));
	json_object_set_new(msg, "state", json_string(nz(e->state)));
	return finish(msg, len);
}
