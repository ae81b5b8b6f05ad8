#include "burst_category.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv1a(uint64_t h, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char) s[i];
		h *= FNV_PRIME;
	}
	return h;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

const char *burst_script_command(const char *script, size_t *len)
{
	const char *line = script;

	*len = 0;
	while (line && *line) {
		const char *end = strchr(line, '\n');
		const char *stop = end ? end : line + strlen(line);

		while (line < stop && is_blank(*line))
			line++;
		while (stop > line && is_blank(stop[-1]))
			stop--;
		if (line < stop && *line != '#') {
			*len = (size_t) (stop - line);
			return line;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

uint64_t burst_category(const char *account, const char *name, const char *script)
{
	/* The separator byte keeps ("ab","c") and ("a","bc") apart. */
	static const char sep = '\0';
	uint64_t h = FNV_OFFSET;
	size_t cmd_len;
	const char *cmd = burst_script_command(script, &cmd_len);

	h = fnv1a(h, account ? account : "", account ? strlen(account) : 0);
	h = fnv1a(h, &sep, 1);
	h = fnv1a(h, name ? name : "", name ? strlen(name) : 0);
	h = fnv1a(h, &sep, 1);
	h = fnv1a(h, cmd ? cmd : "", cmd_len);
	return h;
}

void burst_category_text(uint64_t category, char out[BURST_CATEGORY_TEXT_LEN])
{
	snprintf(out, BURST_CATEGORY_TEXT_LEN, "%016" PRIx64, category);
}
