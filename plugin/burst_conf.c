#include "burst_conf.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A burst.conf larger than this is certainly not a burst.conf. */
#define BURST_CONF_MAX_BYTES (64 * 1024)

static void warnf(burst_warn_fn warn, void *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(ctx, msg);
}

void burst_conf_defaults(struct burst_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	strcpy(conf->socket_path, BURST_CONF_DEFAULT_SOCKET);
	conf->export_interval = BURST_CONF_DEFAULT_INTERVAL;
	conf->jobs_per_lock = BURST_CONF_DEFAULT_JOBS_PER_LOCK;
	conf->full_snapshot_every = BURST_CONF_DEFAULT_DELTAS;
}

/* A whole number in min..max into *out; 0, or 1 after a warning. */
static int parse_count(const char *value, const char *key, const char *unit, unsigned min,
		       unsigned max, unsigned *out, const char *path, int lineno,
		       burst_warn_fn warn, void *ctx)
{
	char *endp;
	unsigned long n;

	errno = 0;
	n = strtoul(value, &endp, 10);
	if (!isdigit((unsigned char) value[0]) || *endp || errno || n < min || n > max) {
		warnf(warn, ctx, "%s:%d: %s: expected %s %u..%u, got \"%s\"", path, lineno, key,
		      unit, min, max, value);
		return 1;
	}
	*out = (unsigned) n;
	return 0;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char) *s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char) end[-1]))
		*--end = '\0';
	return s;
}

static int parse_line(char *line, const char *path, int lineno,
		      struct burst_conf *conf, burst_warn_fn warn, void *ctx)
{
	char *hash = strchr(line, '#');
	char *key, *value, *eq;

	if (hash)
		*hash = '\0';
	key = trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		warnf(warn, ctx, "%s:%d: expected Key=Value, got \"%s\"",
		      path, lineno, key);
		return 1;
	}
	*eq = '\0';
	key = trim(key);
	value = trim(eq + 1);

	if (!strcasecmp(key, "SocketPath")) {
		if (value[0] != '/') {
			warnf(warn, ctx, "%s:%d: SocketPath: expected an absolute path, got \"%s\"",
			      path, lineno, value);
			return 1;
		}
		if (strlen(value) >= sizeof(conf->socket_path)) {
			warnf(warn, ctx, "%s:%d: SocketPath: longer than %zu bytes, the limit of a UNIX socket path",
			      path, lineno, sizeof(conf->socket_path) - 1);
			return 1;
		}
		strcpy(conf->socket_path, value);
		return 0;
	}
	if (!strcasecmp(key, "ExportInterval"))
		return parse_count(value, "ExportInterval", "seconds", 1, BURST_CONF_MAX_INTERVAL,
				   &conf->export_interval, path, lineno, warn, ctx);
	if (!strcasecmp(key, "ExportJobsPerLock"))
		return parse_count(value, "ExportJobsPerLock", "jobs", 1, BURST_CONF_MAX_JOBS_PER_LOCK,
				   &conf->jobs_per_lock, path, lineno, warn, ctx);
	if (!strcasecmp(key, "FullSnapshotEvery"))
		return parse_count(value, "FullSnapshotEvery", "deltas", 0, BURST_CONF_MAX_DELTAS,
				   &conf->full_snapshot_every, path, lineno, warn, ctx);
	if (!strcasecmp(key, "ExportSelfCheck")) {
		if (!strcasecmp(value, "yes"))
			conf->self_check = 1;
		else if (!strcasecmp(value, "no"))
			conf->self_check = 0;
		else {
			warnf(warn, ctx, "%s:%d: ExportSelfCheck: expected yes or no, got \"%s\"",
			      path, lineno, value);
			return 1;
		}
		return 0;
	}
	if (!strcasecmp(key, "InteractiveQOS")) {
		size_t len = strlen(value), i;

		for (i = 0; i < len; i++)
			if (!isalnum((unsigned char) value[i]) && !strchr("-_.", value[i]))
				break;
		if (!len || i < len || len > BURST_CONF_MAX_QOS) {
			warnf(warn, ctx, "%s:%d: InteractiveQOS: expected a QOS name (up to %d letters, digits, '-', '_', '.'), got \"%s\"",
			      path, lineno, BURST_CONF_MAX_QOS, value);
			return 1;
		}
		strcpy(conf->interactive_qos, value);
		return 0;
	}
	warnf(warn, ctx, "%s:%d: unknown key \"%s\" (known: SocketPath, ExportInterval, ExportJobsPerLock, ExportSelfCheck, FullSnapshotEvery, InteractiveQOS)",
	      path, lineno, key);
	return 1;
}

int burst_conf_parse(const char *text, const char *path,
		     struct burst_conf *conf, burst_warn_fn warn, void *ctx)
{
	char *copy = strdup(text), *line, *next;
	int lineno = 0, problems = 0;

	if (!copy) {
		warnf(warn, ctx, "%s: out of memory", path);
		return 1;
	}
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		problems += parse_line(line, path, ++lineno, conf, warn, ctx);
	}
	free(copy);
	return problems;
}

int burst_conf_load(const char *path, struct burst_conf *conf,
		    burst_warn_fn warn, void *ctx)
{
	char *text;
	size_t len;
	FILE *f;
	int problems;

	burst_conf_defaults(conf);
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		warnf(warn, ctx, "%s: cannot read: %s; using defaults",
		      path, strerror(errno));
		return 1;
	}
	text = malloc(BURST_CONF_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		warnf(warn, ctx, "%s: out of memory", path);
		return 1;
	}
	len = fread(text, 1, BURST_CONF_MAX_BYTES + 1, f);
	fclose(f);
	if (len > BURST_CONF_MAX_BYTES) {
		free(text);
		warnf(warn, ctx, "%s: larger than %d bytes; using defaults",
		      path, BURST_CONF_MAX_BYTES);
		return 1;
	}
	text[len] = '\0';
	problems = burst_conf_parse(text, path, conf, warn, ctx);
	free(text);
	return problems;
}

int burst_conf_path_for(const char *slurm_conf_path, char *out, size_t outlen)
{
	const char *slash = slurm_conf_path ? strrchr(slurm_conf_path, '/') : NULL;
	int n;

	if (!slash)
		n = snprintf(out, outlen, "burst.conf");
	else
		n = snprintf(out, outlen, "%.*s/burst.conf",
			     (int) (slash - slurm_conf_path), slurm_conf_path);
	return (n < 0 || (size_t) n >= outlen) ? -1 : 0;
}
