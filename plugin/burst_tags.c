#include "burst_tags.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORD_SEPARATORS " \t\r\n,"

/* The next word of *p (its length into *len), moving *p past it; NULL at the end. */
static const char *next_word(const char **p, size_t *len)
{
	const char *word = *p + strspn(*p, WORD_SEPARATORS);

	*len = strcspn(word, WORD_SEPARATORS);
	*p = word + *len;
	return *len ? word : NULL;
}

int burst_parse_mode(const char *s, enum burst_mode *out, char *err, size_t errlen)
{
	if (!strcmp(s, "never"))
		*out = BURST_MODE_NEVER;
	else if (!strcmp(s, "allow"))
		*out = BURST_MODE_ALLOW;
	else if (!strcmp(s, "prefer"))
		*out = BURST_MODE_PREFER;
	else {
		snprintf(err, errlen, "burst: expected never, allow or prefer, got \"%s\"", s);
		return -1;
	}
	return 0;
}

int burst_parse_threads(const char *s, int *out, char *err, size_t errlen)
{
	char *end;
	long n;

	if (!strcmp(s, "auto")) {
		*out = BURST_THREADS_AUTO;
		return 0;
	}
	errno = 0;
	n = strtol(s, &end, 10);
	if (!isdigit((unsigned char) s[0]) || *end || errno || n < 1 ||
	    n > BURST_THREADS_MAX) {
		snprintf(err, errlen, "threads: expected auto or an integer 1..%d, got \"%s\"",
			 BURST_THREADS_MAX, s);
		return -1;
	}
	*out = (int) n;
	return 0;
}

int burst_parse_size(const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* Digits and a point only: no signs, exponents, hex, inf or nan. */
	if (!isdigit((unsigned char) s[0]) || *end || errno || s[strspn(s, "0123456789.")] ||
	    strchr(s, '.') != strrchr(s, '.') || s[strlen(s) - 1] == '.' || strlen(s) > BURST_SIZE_TEXT_MAX || !(v > 0) ||
	    v > BURST_SIZE_MAX) {
		snprintf(err, errlen, "size: expected a positive number such as 12 or 0.5 (at most %g), got \"%s\"",
			 BURST_SIZE_MAX, s);
		return -1;
	}
	*out = v;
	return 0;
}

const char *burst_mode_name(enum burst_mode mode)
{
	switch (mode) {
	case BURST_MODE_NEVER:
		return "never";
	case BURST_MODE_PREFER:
		return "prefer";
	case BURST_MODE_ALLOW:
	case BURST_MODE_UNSET:
		break;
	}
	return "allow";
}

const char *burst_threads_text(int threads, char *buf, size_t buflen)
{
	if (threads == BURST_THREADS_AUTO)
		snprintf(buf, buflen, "auto");
	else if (threads == BURST_THREADS_UNSET)
		snprintf(buf, buflen, "%s", "");
	else
		snprintf(buf, buflen, "%d", threads);
	return buf;
}

static int parse_category(const char *s, uint64_t *out, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isxdigit((unsigned char) s[i]) || isupper((unsigned char) s[i]))
			break;
	if (i != 16 || s[i]) {
		snprintf(err, errlen, "category: expected 16 lowercase hex digits, got \"%s\"", s);
		return -1;
	}
	*out = strtoull(s, NULL, 16);
	return 0;
}

static int has_prefix(const char *w, size_t len, const char *prefix)
{
	size_t plen = strlen(prefix);

	return len >= plen && !strncmp(w, prefix, plen);
}

/* in_admin_comment: why: words are ours there, the user's in a Comment. */
static int is_our_word(const char *w, size_t len, int in_admin_comment)
{
	/* "size:large" stays the user's text: a size starts with a digit. */
	return has_prefix(w, len, "burst:") || has_prefix(w, len, "threads:") ||
	       (has_prefix(w, len, "size:") && len > 5 && isdigit((unsigned char) w[5])) ||
	       has_prefix(w, len, "category:") || (in_admin_comment && has_prefix(w, len, "why:"));
}

static int parse_why(const char *s, char *out, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isgraph((unsigned char) s[i]))
			break;
	if (s[i] || i > BURST_WHY_MAX) {
		snprintf(err, errlen, "why: expected at most %d printable characters, got \"%.20s\"",
			 BURST_WHY_MAX, s);
		return -1;
	}
	memcpy(out, s, i + 1);
	return 0;
}

static int parse_word(const char *word, int allow_category, struct burst_tags *t,
		      char *err, size_t errlen)
{
	const char *value = strchr(word, ':') + 1;

	if (!strncmp(word, "burst:", 6)) {
		enum burst_mode m;
		if (burst_parse_mode(value, &m, err, errlen))
			return -1;
		if (t->mode != BURST_MODE_UNSET && t->mode != m) {
			snprintf(err, errlen, "burst: given twice with different values");
			return -1;
		}
		t->mode = m;
	} else if (!strncmp(word, "threads:", 8)) {
		int n;
		if (burst_parse_threads(value, &n, err, errlen))
			return -1;
		if (t->threads != BURST_THREADS_UNSET && t->threads != n) {
			snprintf(err, errlen, "threads: given twice with different values");
			return -1;
		}
		t->threads = n;
	} else if (!strncmp(word, "size:", 5)) {
		double v;
		if (burst_parse_size(value, &v, err, errlen))
			return -1;
		if (t->size[0] && strcmp(t->size, value)) {
			snprintf(err, errlen, "size: given twice with different values");
			return -1;
		}
		strcpy(t->size, value);
	} else if (!strncmp(word, "why:", 4)) {
		char why[BURST_WHY_MAX + 1];
		if (parse_why(value, why, err, errlen))
			return -1;
		if (t->why[0] && strcmp(t->why, why)) {
			snprintf(err, errlen, "why: given twice with different values");
			return -1;
		}
		strcpy(t->why, why);
	} else {
		uint64_t c;
		if (!allow_category) {
			snprintf(err, errlen, "category: is set by slurm-burst, not by users");
			return -1;
		}
		if (parse_category(value, &c, err, errlen))
			return -1;
		t->category = c;
		t->has_category = 1;
	}
	return 0;
}

int burst_tags_parse(const char *text, int allow_category, struct burst_tags *out,
		     char *err, size_t errlen)
{
	struct burst_tags t = { BURST_MODE_UNSET, BURST_THREADS_UNSET, 0, 0, "", "" };
	char word[128];
	const char *p = text ? text : "", *w;
	size_t len;

	while ((w = next_word(&p, &len))) {
		if (!is_our_word(w, len, allow_category))
			continue;
		if (len >= sizeof(word)) {
			snprintf(err, errlen, "\"%.20s...\": too long for a burst/threads/size value", w);
			return -1;
		}
		memcpy(word, w, len);
		word[len] = '\0';
		if (parse_word(word, allow_category, &t, err, errlen))
			return -1;
	}
	*out = t;
	return 0;
}

char *burst_tags_admin_comment(const struct burst_tags *tags, const char *old)
{
	size_t cap = 128 + BURST_WHY_MAX + BURST_SIZE_TEXT_MAX + (old ? strlen(old) : 0);
	char *out = malloc(cap), threads[16];
	size_t used, len;
	const char *p = old ? old : "", *w;

	if (!out)
		return NULL;
	used = (size_t) snprintf(out, cap, "burst:%s", burst_mode_name(tags->mode));
	if (tags->threads != BURST_THREADS_UNSET)
		used += (size_t) snprintf(out + used, cap - used, " threads:%s",
					  burst_threads_text(tags->threads, threads, sizeof(threads)));
	if (tags->size[0])
		used += (size_t) snprintf(out + used, cap - used, " size:%s", tags->size);
	if (tags->has_category)
		used += (size_t) snprintf(out + used, cap - used, " category:%016" PRIx64,
					  tags->category);
	if (tags->why[0])
		used += (size_t) snprintf(out + used, cap - used, " why:%s", tags->why);
	while ((w = next_word(&p, &len)))
		if (!is_our_word(w, len, 1))
			used += (size_t) snprintf(out + used, cap - used, " %.*s", (int) len, w);
	return out;
}

int burst_tags_only_why(const char *text)
{
	const char *p = text ? text : "", *w;
	size_t len;
	int words = 0;

	while ((w = next_word(&p, &len))) {
		if (!has_prefix(w, len, "why:"))
			return 0;
		words++;
	}
	return words > 0;
}
