#include "node_gres.h"

#include <ctype.h>
#include <string.h>

/* Bytes the per-job list takes with each entry's count made 1: an entry
 * whose last ':' field starts with a digit has a count (Slurm reads it so),
 * which gives way to "1"; one without one asks for 1 already. */
static size_t per_job_length(const char *list, char *out)
{
	size_t n = 0;
	const char *entry = list;

	while (*entry) {
		const char *end = strchr(entry, ',');
		const char *colon, *keep_end;
		size_t len = end ? (size_t) (end - entry) : strlen(entry);

		keep_end = entry + len;
		for (colon = keep_end; colon > entry && colon[-1] != ':'; colon--)
			;
		if (colon > entry && colon < entry + len && isdigit((unsigned char) *colon))
			keep_end = colon - 1;
		if (out) {
			if (n)
				out[n] = ',';
			memcpy(out + n + (n ? 1 : 0), entry, (size_t) (keep_end - entry));
		}
		n += (n ? 1 : 0) + (size_t) (keep_end - entry);
		if (keep_end != entry + len) {
			if (out)
				memcpy(out + n, ":1", 2);
			n += 2;
		}
		if (!end)
			break;
		entry = end + 1;
	}
	return n;
}

char *node_gres(struct snapshot *s, const char *per_node, const char *per_task, const char *per_socket,
		const char *per_job, int *oom)
{
	const char *as_written[] = { per_node, per_task, per_socket };
	size_t total = 0, used = 0, i;
	char *text;

	for (i = 0; i < 3; i++)
		if (as_written[i] && *as_written[i])
			total += strlen(as_written[i]) + 1;
	if (per_job && *per_job)
		total += per_job_length(per_job, NULL) + 1;
	if (!total)
		return NULL;
	if (!(text = snapshot_alloc(s, total))) {
		*oom = 1;
		return NULL;
	}
	for (i = 0; i < 3; i++) {
		size_t len;

		if (!as_written[i] || !*as_written[i])
			continue;
		if (used)
			text[used++] = ',';
		len = strlen(as_written[i]);
		memcpy(text + used, as_written[i], len);
		used += len;
	}
	if (per_job && *per_job) {
		if (used)
			text[used++] = ',';
		used += per_job_length(per_job, text + used);
	}
	text[used] = '\0';
	return text;
}
