#include "snapshot.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_FIRST_CHUNK (64 * 1024)

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

int snapshot_reserve_jobs(struct snapshot *s, size_t n)
{
	struct snap_job *jobs;

	if (n <= s->cap_jobs)
		return 0;
	if (!(jobs = realloc(s->jobs, n * sizeof(*jobs))))
		return -1;
	s->jobs = jobs;
	s->cap_jobs = n;
	return 0;
}

static struct snap_arena_chunk *new_chunk(size_t cap)
{
	struct snap_arena_chunk *c = malloc(sizeof(*c) + cap);

	if (c) {
		c->next = NULL;
		c->used = 0;
		c->cap = cap;
	}
	return c;
}

char *snapshot_alloc(struct snapshot *s, size_t len)
{
	struct snap_arena_chunk *c = s->arena;

	if (!c || c->cap - c->used < len) {
		size_t cap = c ? c->cap * 2 : ARENA_FIRST_CHUNK;
		if (cap < len)
			cap = len;
		if (!(c = new_chunk(cap)))
			return NULL;
		c->next = s->arena;
		s->arena = c;
	}
	c->used += len;
	return c->data + c->used - len;
}

char *snapshot_strdup(struct snapshot *s, const char *str, int *oom)
{
	size_t len;
	char *copy;

	if (!str)
		return NULL;
	len = strlen(str) + 1;
	if (!(copy = snapshot_alloc(s, len))) {
		*oom = 1;
		return NULL;
	}
	return memcpy(copy, str, len);
}

static void free_chunks(struct snap_arena_chunk *c)
{
	while (c) {
		struct snap_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
}

void snapshot_reset(struct snapshot *s)
{
	struct snap_arena_chunk *c;
	size_t total = 0;

	for (c = s->arena; c; c = c->next)
		total += c->used;
	if (s->arena && s->arena->next) {
		/* One chunk that fits what the last pass needed, plus room. */
		free_chunks(s->arena);
		s->arena = new_chunk(total + total / 4);
	}
	if (s->arena)
		s->arena->used = 0;
	s->njobs = s->nnodes = s->nparts = s->nshares = s->nends = 0;
}

void snapshot_clear(struct snapshot *s)
{
	free_chunks(s->arena);
	free(s->jobs); free(s->nodes); free(s->parts); free(s->shares); free(s->ends);
	memset(s, 0, sizeof(*s));
}
