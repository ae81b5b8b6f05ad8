/*
 * spank_burst: sbatch/salloc/srun options --burst=never|allow|prefer,
 * --threads=N|auto and --burst-size=X.  In the submitting command the values
 * are checked and passed to job_submit/burst as BURST_MODE=, BURST_THREADS=
 * and BURST_SIZE= in the job's control environment (job_desc->spank_job_env).  In the job's tasks
 * OMP_NUM_THREADS follows the CPUs per task Slurm allocated, so a job whose
 * thread count was chosen for it uses exactly that many threads, and so does
 * SRUN_CPUS_PER_TASK, because 22.05's srun inside the job does not inherit
 * the job's CPUs per task.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "burst_tags.h"

SPANK_PLUGIN(burst, 1);

static char burst_mode[16];
static char burst_threads[16];
static char burst_size[BURST_SIZE_TEXT_MAX + 1];

static int check_burst(int val, const char *optarg, int remote)
{
	enum burst_mode mode;
	char err[128];

	(void) val;
	(void) remote;
	if (!optarg || burst_parse_mode(optarg, &mode, err, sizeof(err))) {
		slurm_error("--%s", optarg ? err : "burst: expected never, allow or prefer");
		return ESPANK_BAD_ARG;
	}
	snprintf(burst_mode, sizeof(burst_mode), "%s", optarg);
	return ESPANK_SUCCESS;
}

static int check_threads(int val, const char *optarg, int remote)
{
	char err[128];
	int threads;

	(void) val;
	(void) remote;
	if (!optarg || burst_parse_threads(optarg, &threads, err, sizeof(err))) {
		slurm_error("--%s", optarg ? err : "threads: expected auto or an integer");
		return ESPANK_BAD_ARG;
	}
	snprintf(burst_threads, sizeof(burst_threads), "%s", optarg);
	return ESPANK_SUCCESS;
}

static int check_size(int val, const char *optarg, int remote)
{
	char err[160];
	double size;

	(void) val;
	(void) remote;
	if (!optarg || burst_parse_size(optarg, &size, err, sizeof(err))) {
		slurm_error("--burst-%s", optarg ? err : "size: expected a positive number");
		return ESPANK_BAD_ARG;
	}
	snprintf(burst_size, sizeof(burst_size), "%s", optarg);
	return ESPANK_SUCCESS;
}

/*
 * Registered from slurm_spank_init rather than exported as spank_options:
 * sbatch and salloc (allocator context) ignore a static table.
 */
static struct spank_option burst_options[] = {
	{ "burst", "never|allow|prefer",
	  "Whether this job may run on cloud nodes: never, allow (default) or "
	  "prefer (burst even when local nodes would free up soon)",
	  1, 0, check_burst },
	{ "threads", "N|auto",
	  "Threads (CPUs per task) for this job: a number, or auto to let "
	  "slurm-burst choose from earlier jobs of the same kind; the job's "
	  "tasks get OMP_NUM_THREADS set to match",
	  1, 0, check_threads },
	{ "burst-size", "X",
	  "This job's input size, in a unit of your choice (e.g. GB): slurm-burst "
	  "learns how its kind of job's run time grows with it",
	  1, 0, check_size },
	SPANK_OPTIONS_TABLE_END
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	struct spank_option *opt;

	(void) ac;
	(void) av;
	for (opt = burst_options; opt->name; opt++) {
		if (spank_option_register(sp, opt) != ESPANK_SUCCESS) {
			slurm_error("spank_burst: cannot register --%s", opt->name);
			return -1;
		}
	}
	return ESPANK_SUCCESS;
}

static int pass_to_controller(spank_t sp, const char *var, const char *value)
{
	if (!value[0])
		return ESPANK_SUCCESS;
	if (spank_job_control_setenv(sp, var, value, 1) != ESPANK_SUCCESS) {
		slurm_error("spank_burst: cannot pass %s=%s to slurmctld", var, value);
		return -1;
	}
	return ESPANK_SUCCESS;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void) ac;
	(void) av;
	if (spank_context() != S_CTX_ALLOCATOR && spank_context() != S_CTX_LOCAL)
		return ESPANK_SUCCESS;
	if (pass_to_controller(sp, "BURST_MODE", burst_mode) ||
	    pass_to_controller(sp, "BURST_THREADS", burst_threads) ||
	    pass_to_controller(sp, "BURST_SIZE", burst_size))
		return -1;
	return ESPANK_SUCCESS;
}

/*
 * Runs in each task of the job; the option values are forwarded here by
 * Slurm, so only jobs that asked for --threads get OMP_NUM_THREADS and
 * SRUN_CPUS_PER_TASK.  The
 * step's own CPUs per task is the truth: job_submit/burst may have set it
 * after sbatch wrote SLURM_CPUS_PER_TASK (or did not write it at all).
 */
int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	uint16_t cpus_per_task = 0;
	char cpus[16];

	(void) ac;
	(void) av;
	if (!burst_threads[0])
		return ESPANK_SUCCESS;
	if (spank_get_item(sp, S_STEP_CPUS_PER_TASK, &cpus_per_task) == ESPANK_SUCCESS &&
	    cpus_per_task > 0 && cpus_per_task != NO_VAL16)
		snprintf(cpus, sizeof(cpus), "%u", (unsigned) cpus_per_task);
	else if (spank_getenv(sp, "SLURM_CPUS_PER_TASK", cpus, sizeof(cpus)) != ESPANK_SUCCESS)
		snprintf(cpus, sizeof(cpus), "1");
	if (spank_setenv(sp, "OMP_NUM_THREADS", cpus, 1) != ESPANK_SUCCESS ||
	    spank_setenv(sp, "SRUN_CPUS_PER_TASK", cpus, 1) != ESPANK_SUCCESS) {
		slurm_error("spank_burst: cannot set OMP_NUM_THREADS and SRUN_CPUS_PER_TASK to %s", cpus);
		return -1;
	}
	return ESPANK_SUCCESS;
}
