#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

static void *grow(void **arr, size_t *n, size_t *cap, size_t elem)
{
	char *p;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		void *na = realloc(*arr, ncap * elem);
		if (!na)
			return NULL;
		*arr = na;
		*cap = ncap;
	}
	p = (char *) *arr + (*n)++ * elem;
	memset(p, 0, elem);
	return p;
}

#define ADD(s, arr, n, cap) grow((void **) &(s)->arr, &(s)->n, &(s)->cap, sizeof(*(s)->arr))

struct snap_job *snapshot_add_job(struct snapshot *s)
{
	return ADD(s, jobs, njobs, cap_jobs);
}

struct snap_node *snapshot_add_node(struct snapshot *s)
{
	return ADD(s, nodes, nnodes, cap_nodes);
}

struct snap_partition *snapshot_add_partition(struct snapshot *s)
{
	return ADD(s, parts, nparts, cap_parts);
}

struct snap_share *snapshot_add_share(struct snapshot *s)
{
	return ADD(s, shares, nshares, cap_shares);
}

struct snap_job_end *snapshot_add_job_end(struct snapshot *s)
{
	return ADD(s, ends, nends, cap_ends);
}

char *snap_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

void snapshot_clear(struct snapshot *s)
{
	size_t i;

	for (i = 0; i < s->njobs; i++) {
		struct snap_job *j = &s->jobs[i];
		free(j->user); free(j->account); free(j->partitions); free(j->qos);
		free(j->name); free(j->admin_comment); free(j->gres);
		free(j->features); free(j->dependency); free(j->node_list);
	}
	for (i = 0; i < s->nnodes; i++) {
		struct snap_node *n = &s->nodes[i];
		free(n->name); free(n->features); free(n->partitions); free(n->addr);
	}
	for (i = 0; i < s->nparts; i++) {
		free(s->parts[i].name);
		free(s->parts[i].nodes);
	}
	for (i = 0; i < s->nshares; i++) {
		free(s->shares[i].account);
		free(s->shares[i].user);
		free(s->shares[i].parent);
	}
	for (i = 0; i < s->nends; i++) {
		free(s->ends[i].admin_comment);
		free(s->ends[i].account);
		free(s->ends[i].node_list);
	}
	free(s->jobs); free(s->nodes); free(s->parts); free(s->shares); free(s->ends);
	memset(s, 0, sizeof(*s));
}
