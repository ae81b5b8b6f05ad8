/*
 * The user's burst and thread choices and how they are written down.
 *
 * Users give them as SPANK options (--burst=never|allow|prefer,
 * --threads=N|auto, --burst-size=X) or, on sites without SPANK, as words in
 * --comment:
 *     --comment="burst:prefer threads:auto size:12.5 my own notes"
 * Words are separated by blanks or commas; only words starting with "burst:",
 * "threads:" or "size:" are ours, everything else is left alone.  The size
 * is the job's input size in whatever unit the user picks (GB, reads...):
 * its category's run time is learned as a function of it.  The plugin records
 * the outcome on the job's AdminComment in the same syntax, plus the job's
 * category:  "burst:prefer threads:auto category:0123456789abcdef".
 * burstd adds why burst did or did not act on a pending job, as one word it
 * replaces as its decision changes: "why:cloud:aws", "why:budget".
 */
#ifndef BURST_TAGS_H
#define BURST_TAGS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum burst_mode { BURST_MODE_UNSET = 0, BURST_MODE_NEVER, BURST_MODE_ALLOW, BURST_MODE_PREFER };

#define BURST_THREADS_UNSET 0
#define BURST_THREADS_AUTO (-1)
#define BURST_THREADS_MAX 1024
#define BURST_WHY_MAX 48 /* characters of a why: value */
#define BURST_SIZE_MAX 1e15
#define BURST_SIZE_TEXT_MAX 24 /* characters of a size: value */

struct burst_tags {
	enum burst_mode mode;
	int threads;       /* BURST_THREADS_UNSET, BURST_THREADS_AUTO or 1..MAX */
	int has_category;
	uint64_t category;
	char why[BURST_WHY_MAX + 1]; /* "" = none */
	char size[BURST_SIZE_TEXT_MAX + 1]; /* as the user wrote it, checked; "" = none */
};

/* 0 on success; otherwise err names the value and what was expected. */
int burst_parse_mode(const char *s, enum burst_mode *out, char *err, size_t errlen);
int burst_parse_threads(const char *s, int *out, char *err, size_t errlen);
/* A size as users write it: digits with at most one point, more than 0 and
 * at most BURST_SIZE_MAX; its value into *out. */
int burst_parse_size(const char *s, double *out, char *err, size_t errlen);

/* "never", "allow", "prefer" ("allow" for UNSET, the default). */
const char *burst_mode_name(enum burst_mode mode);
/* "auto", "N" or "" into buf. */
const char *burst_threads_text(int threads, char *buf, size_t buflen);

/*
 * Collects our words from text (NULL is empty).  allow_category reads text
 * as an AdminComment: "category:<16 hex>" is accepted (users cannot set
 * it) and "why:" words are ours (in a Comment they are the user's).  A
 * repeated word with a different value is an error.  Returns 0 or -1 with
 * err set.
 */
int burst_tags_parse(const char *text, int allow_category, struct burst_tags *out,
		     char *err, size_t errlen);

/*
 * Rewrites an AdminComment: our words for tags first, then every word of
 * old (may be NULL) that is not ours.  Returns a malloc'd string.
 */
char *burst_tags_admin_comment(const struct burst_tags *tags, const char *old);

/* 1 when text has words and every one is a why: word (burstd's update). */
int burst_tags_only_why(const char *text);

#ifdef __cplusplus
}
#endif
#endif
