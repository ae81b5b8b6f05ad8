/*
 * burst.conf: the job_submit/burst plugin's own configuration, read from the
 * directory that holds slurm.conf.  Kept free of Slurm headers so the unit
 * tests can exercise it.
 */
#ifndef BURST_CONF_H
#define BURST_CONF_H

#include <stddef.h>
#include <sys/un.h>

#ifdef __cplusplus
extern "C" {
#endif

/* burstd's default SocketPath, so the two meet without any configuration. */
#define BURST_CONF_DEFAULT_SOCKET "/run/burstd/snapshot.sock"
#define BURST_CONF_DEFAULT_INTERVAL 5
#define BURST_CONF_MAX_INTERVAL 3600
/* About half a millisecond of copying per hold on the test machine. */
#define BURST_CONF_DEFAULT_JOBS_PER_LOCK 1000
#define BURST_CONF_MAX_JOBS_PER_LOCK 1000000
/* Deltas between whole snapshots: one whole every 5 minutes at the default
 * interval, so that a state burstd got wrong some unforeseen way heals. */
#define BURST_CONF_DEFAULT_DELTAS 60
#define BURST_CONF_MAX_DELTAS 1000000

#define BURST_CONF_MAX_QOS 63

struct burst_conf {
	char socket_path[sizeof(((struct sockaddr_un *) 0)->sun_path)];
	unsigned export_interval; /* seconds, 1..BURST_CONF_MAX_INTERVAL */
	unsigned jobs_per_lock;   /* jobs copied per read-lock hold */
	int self_check;           /* compare kept job texts with a fresh dump */
	unsigned full_snapshot_every; /* deltas between whole snapshots; 0 = no deltas */
	/* The QOS given to interactive jobs (no batch script) that name
	 * none; "" = none given. */
	char interactive_qos[BURST_CONF_MAX_QOS + 1];
};

/* Receives one complete diagnostic line (already naming file:line). */
typedef void (*burst_warn_fn)(void *ctx, const char *msg);

void burst_conf_defaults(struct burst_conf *conf);

/*
 * Parses text (the contents of path) over conf, which should hold defaults.
 * Every unknown or malformed line is reported through warn and leaves the
 * affected setting at its previous value.  Returns the number of problems.
 */
int burst_conf_parse(const char *text, const char *path,
		     struct burst_conf *conf, burst_warn_fn warn, void *ctx);

/*
 * Defaults, then the file at path if it exists.  A missing file is not an
 * error (the defaults apply); an unreadable one is reported.
 */
int burst_conf_load(const char *path, struct burst_conf *conf,
		    burst_warn_fn warn, void *ctx);

/* "<dir of slurm_conf_path>/burst.conf" into out; 0 on success. */
int burst_conf_path_for(const char *slurm_conf_path, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif
#endif
