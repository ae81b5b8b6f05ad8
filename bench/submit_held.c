/*
 * Fills a Slurm queue with held batch jobs quickly, for benchmarks that need
 * tens of thousands of pending jobs (forking sbatch per job manages only a
 * few hundred a minute on a small machine).
 *
 *   submit_held PARTITION COUNT [THREADS]
 *
 * Uses SLURM_CONF like any Slurm client.  Prints the number submitted;
 * exits non-zero if any submission failed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

struct worker {
	pthread_t tid;
	const char *partition;
	long count;
	long failed;
	int first_error;
};

static void *submit(void *arg)
{
	struct worker *w = arg;
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	long i;

	for (i = 0; i < w->count; i++) {
		job_desc_msg_t d;
		submit_response_msg_t *resp = NULL;

		slurm_init_job_desc_msg(&d);
		d.name = "bench";
		d.partition = (char *) w->partition;
		d.script = "#!/bin/sh\ntrue\n";
		d.environment = env;
		d.env_size = 1;
		d.work_dir = "/tmp";
		d.std_out = "/dev/null";
		d.std_err = "/dev/null";
		d.user_id = getuid();
		d.group_id = getgid();
		d.min_nodes = 1;
		d.priority = 0;  /* held, like sbatch --hold */
		if (slurm_submit_batch_job(&d, &resp) != SLURM_SUCCESS) {
			if (!w->failed++)
				w->first_error = errno;
		}
		slurm_free_submit_response_response_msg(resp);
	}
	return NULL;
}

static long parse_positive(const char *text, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v <= 0) {
		fprintf(stderr, "submit_held: %s: expected a positive integer, got '%s'\n",
			what, text);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct worker *w;
	long count, nthreads, i, failed = 0;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: submit_held PARTITION COUNT [THREADS]\n");
		return 2;
	}
	count = parse_positive(argv[2], "COUNT");
	nthreads = argc == 4 ? parse_positive(argv[3], "THREADS") : 4;
	if (nthreads > 64) {
		fprintf(stderr, "submit_held: THREADS: at most 64, got %ld\n", nthreads);
		return 2;
	}
	slurm_init(NULL);
	if (!(w = calloc((size_t) nthreads, sizeof(*w)))) {
		perror("submit_held");
		return 1;
	}
	for (i = 0; i < nthreads; i++) {
		w[i].partition = argv[1];
		w[i].count = count / nthreads + (i < count % nthreads);
		if (pthread_create(&w[i].tid, NULL, submit, &w[i])) {
			fprintf(stderr, "submit_held: cannot start thread %ld\n", i);
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].failed && !failed)
			fprintf(stderr, "submit_held: submission failed: %s\n",
				slurm_strerror(w[i].first_error));
		failed += w[i].failed;
	}
	printf("%ld\n", count - failed);
	free(w);
	slurm_fini();
	return failed ? 1 : 0;
}
