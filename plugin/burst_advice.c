#include "burst_advice.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burst_tags.h"

static int cmp_entry(const void *a, const void *b)
{
	const struct burst_advice_entry *x = a, *y = b;

	return x->category < y->category ? -1 : x->category > y->category;
}

static int valid_category_key(const char *k)
{
	size_t i;

	for (i = 0; k[i]; i++)
		if (!isxdigit((unsigned char) k[i]) || isupper((unsigned char) k[i]))
			return 0;
	return i == 16;
}

static int require_int(json_t *msg, const char *field, json_int_t *out,
		       char *err, size_t errlen)
{
	json_t *v = json_object_get(msg, field);

	if (!json_is_integer(v)) {
		snprintf(err, errlen, "advice: %s: %s", field,
			 v ? "expected integer" : "missing");
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

static int validate(json_t *msg, const char *cluster, struct burst_advice *out,
		    char *err, size_t errlen)
{
	json_int_t v, seq, t;
	json_t *type, *cl, *threads, *value, *replace;
	const char *key;
	size_t n = 0;

	if (!json_is_object(msg)) {
		snprintf(err, errlen, "advice: expected a JSON object");
		return -1;
	}
	if (require_int(msg, "v", &v, err, errlen) ||
	    require_int(msg, "seq", &seq, err, errlen) ||
	    require_int(msg, "time", &t, err, errlen))
		return -1;
	if (v != 1) {
		snprintf(err, errlen, "advice: v: expected 1, got %lld", (long long) v);
		return -1;
	}
	type = json_object_get(msg, "type");
	if (!json_is_string(type) || strcmp(json_string_value(type), "advice")) {
		snprintf(err, errlen, "advice seq %lld: type: expected \"advice\"", (long long) seq);
		return -1;
	}
	cl = json_object_get(msg, "cluster");
	if (!json_is_string(cl) || strcmp(json_string_value(cl), cluster)) {
		snprintf(err, errlen, "advice seq %lld: cluster: expected \"%s\"",
			 (long long) seq, cluster);
		return -1;
	}
	replace = json_object_get(msg, "replace");
	if (replace && !json_is_boolean(replace)) {
		snprintf(err, errlen, "advice seq %lld: replace: expected true or false", (long long) seq);
		return -1;
	}
	out->replace = replace && json_is_true(replace);
	threads = json_object_get(msg, "threads");
	if (!json_is_object(threads)) {
		snprintf(err, errlen, "advice seq %lld: threads: %s", (long long) seq,
			 threads ? "expected object" : "missing");
		return -1;
	}
	if (json_object_size(threads) > BURST_ADVICE_MAX_ENTRIES) {
		snprintf(err, errlen, "advice seq %lld: threads: more than %d categories",
			 (long long) seq, BURST_ADVICE_MAX_ENTRIES);
		return -1;
	}
	out->entries = calloc(json_object_size(threads) + 1, sizeof(*out->entries));
	if (!out->entries) {
		snprintf(err, errlen, "advice seq %lld: out of memory", (long long) seq);
		return -1;
	}
	json_object_foreach(threads, key, value) {
		json_int_t k;

		if (!valid_category_key(key)) {
			snprintf(err, errlen, "advice seq %lld: threads.%.40s: expected a category of 16 lowercase hex digits",
				 (long long) seq, key);
			goto fail;
		}
		if (!json_is_integer(value) || (k = json_integer_value(value)) < 1 ||
		    k > BURST_THREADS_MAX) {
			snprintf(err, errlen, "advice seq %lld: threads.%s: expected integer 1..%d",
				 (long long) seq, key, BURST_THREADS_MAX);
			goto fail;
		}
		out->entries[n].category = strtoull(key, NULL, 16);
		out->entries[n].threads = (int) k;
		n++;
	}
	qsort(out->entries, n, sizeof(*out->entries), cmp_entry);
	out->count = n;
	return 0;
fail:
	free(out->entries);
	out->entries = NULL;
	return -1;
}

int burst_advice_parse(const char *line, size_t len, const char *cluster,
		       struct burst_advice *out, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *msg;
	int rc;

	out->entries = NULL;
	out->count = 0;
	out->replace = 0;
	msg = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!msg) {
		snprintf(err, errlen, "advice: not JSON: %s at column %d", jerr.text, jerr.column);
		return -1;
	}
	rc = validate(msg, cluster, out, err, errlen);
	json_decref(msg);
	return rc;
}

static int validate_resync(json_t *msg, const char *cluster, char *reason, size_t reasonlen,
			   char *err, size_t errlen)
{
	json_t *v = json_object_get(msg, "v"), *cl = json_object_get(msg, "cluster");
	json_t *why = json_object_get(msg, "reason");

	if (!json_is_integer(v) || json_integer_value(v) != 2) {
		snprintf(err, errlen, "resync: v: expected 2");
		return -1;
	}
	if (!json_is_integer(json_object_get(msg, "seq")) || !json_is_integer(json_object_get(msg, "time"))) {
		snprintf(err, errlen, "resync: seq and time: expected integers");
		return -1;
	}
	if (!json_is_string(cl) || strcmp(json_string_value(cl), cluster)) {
		snprintf(err, errlen, "resync: cluster: expected \"%s\"", cluster);
		return -1;
	}
	if (why && !json_is_string(why)) {
		snprintf(err, errlen, "resync: reason: expected string");
		return -1;
	}
	snprintf(reason, reasonlen, "%s", why ? json_string_value(why) : "");
	return 1;
}

int burst_resync_parse(const char *line, size_t len, const char *cluster, char *reason,
		       size_t reasonlen, char *err, size_t errlen)
{
	json_t *msg = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL), *type;
	int rc = 0;

	type = json_is_object(msg) ? json_object_get(msg, "type") : NULL;
	if (json_is_string(type) && !strcmp(json_string_value(type), "resync"))
		rc = validate_resync(msg, cluster, reason, reasonlen, err, errlen);
	json_decref(msg);
	return rc;
}

void burst_advice_free(struct burst_advice *advice)
{
	free(advice->entries);
	advice->entries = NULL;
	advice->count = 0;
}

void burst_advice_cache_init(struct burst_advice_cache *cache)
{
	pthread_mutex_init(&cache->mutex, NULL);
	cache->table.entries = NULL;
	cache->table.count = 0;
}

void burst_advice_cache_clear(struct burst_advice_cache *cache)
{
	pthread_mutex_lock(&cache->mutex);
	burst_advice_free(&cache->table);
	pthread_mutex_unlock(&cache->mutex);
}

int burst_advice_cache_merge(struct burst_advice_cache *cache,
			     const struct burst_advice *advice)
{
	struct burst_advice_entry *merged;
	size_t i = 0, j = 0, n = 0;
	int rc = 0;

	pthread_mutex_lock(&cache->mutex);
	merged = malloc((cache->table.count + advice->count + 1) * sizeof(*merged));
	if (!merged) {
		rc = -1;
		goto out;
	}
	while (i < cache->table.count || j < advice->count) {
		if (j == advice->count ||
		    (i < cache->table.count &&
		     cache->table.entries[i].category < advice->entries[j].category)) {
			merged[n++] = cache->table.entries[i++];
		} else {
			if (i < cache->table.count &&
			    cache->table.entries[i].category == advice->entries[j].category)
				i++;
			merged[n++] = advice->entries[j++];
		}
	}
	if (n > BURST_ADVICE_MAX_ENTRIES) {
		free(merged);
		rc = -1;
		goto out;
	}
	free(cache->table.entries);
	cache->table.entries = merged;
	cache->table.count = n;
out:
	pthread_mutex_unlock(&cache->mutex);
	return rc;
}

void burst_advice_cache_replace(struct burst_advice_cache *cache, struct burst_advice *advice)
{
	struct burst_advice old;

	pthread_mutex_lock(&cache->mutex);
	old = cache->table;
	cache->table = *advice;
	pthread_mutex_unlock(&cache->mutex);
	burst_advice_free(&old);
	advice->entries = NULL;
	advice->count = 0;
}

int burst_advice_cache_lookup(struct burst_advice_cache *cache, uint64_t category)
{
	struct burst_advice_entry key = { category, 0 }, *hit;
	int threads = 0;

	pthread_mutex_lock(&cache->mutex);
	if (cache->table.count) {
		hit = bsearch(&key, cache->table.entries, cache->table.count,
			      sizeof(key), cmp_entry);
		if (hit)
			threads = hit->threads;
	}
	pthread_mutex_unlock(&cache->mutex);
	return threads;
}
