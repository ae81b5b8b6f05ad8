#include "node_gres.h"

#include <ctype.h>
#include <string.h>

/*
 * One entry of a TRES list, written to out (when not NULL) in 22.05's form;
 * returns its length, 0 for an entry that is no generic resource.  The
 * count is the part after the last ':' or '=' when it starts with a digit
 * (Slurm reads it so); count_one makes it 1.  An entry without the "gres"
 * prefix is a gres only when its name ends at ':' or at its end (22.05
 * wrote some so); "cpu=2" or "license/x=1" are other TRES.
 */
static size_t gres_entry(const char *entry, size_t len, int count_one, char *out)
{
	const char *body = entry, *end = entry + len, *sep, *name_end;
	size_t prefix = 0, n;

	if (len > 5 && (!strncmp(entry, "gres:", 5) || !strncmp(entry, "gres/", 5))) {
		body = entry + 5;
		prefix = 5;
	} else {
		for (name_end = entry; name_end < end && *name_end != ':' && *name_end != '=' && *name_end != '/';
		     name_end++)
			;
		if (name_end < end && *name_end != ':')
			return 0;
	}
	for (sep = end; sep > body && sep[-1] != ':' && sep[-1] != '='; sep--)
		;
	if (sep == body || sep == end || !isdigit((unsigned char) *sep))
		sep = NULL; /* no count: one is meant */
	n = (size_t) ((sep ? sep - 1 : end) - body);
	if (out) {
		if (prefix)
			memcpy(out, "gres:", 5);
		memcpy(out + prefix, body, n);
	}
	n += prefix;
	if (sep) {
		const char *count = count_one ? "1" : sep;
		size_t count_len = count_one ? 1 : (size_t) (end - sep);

		if (out) {
			out[n] = ':';
			memcpy(out + n + 1, count, count_len);
		}
		n += 1 + count_len;
	}
	return n;
}

/* The gres entries of a comma-separated list appended to out at used
 * (after a ',' when used is not 0); returns the new length.  With out NULL
 * only counts: never more than the list's own length plus one. */
static size_t append_gres(const char *list, int count_one, char *out, size_t used)
{
	const char *entry = list;

	while (entry && *entry) {
		const char *comma = strchr(entry, ',');
		size_t len = comma ? (size_t) (comma - entry) : strlen(entry);
		size_t sep = used ? 1 : 0;
		size_t n = gres_entry(entry, len, count_one, out ? out + used + sep : NULL);

		if (n) {
			if (out && sep)
				out[used] = ',';
			used += sep + n;
		}
		entry = comma ? comma + 1 : NULL;
	}
	return used;
}

char *node_gres(struct snapshot *s, const char *per_node, const char *per_task, const char *per_socket,
		const char *per_job, int *oom)
{
	const char *lists[] = { per_node, per_task, per_socket, per_job };
	size_t total = 0, used = 0, i;
	char *text;

	for (i = 0; i < 4; i++)
		total = append_gres(lists[i], i == 3, NULL, total);
	if (!total)
		return NULL;
	if (!(text = snapshot_alloc(s, total + 1))) {
		*oom = 1;
		return NULL;
	}
	for (i = 0; i < 4; i++)
		used = append_gres(lists[i], i == 3, text, used);
	text[used] = '\0';
	return text;
}
