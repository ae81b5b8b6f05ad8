/*
 * A job's category: jobs of one account, with one name, running one command
 * are assumed to behave alike, so burstd learns runtimes and thread counts
 * per category.  The key is a 64-bit FNV-1a hash, printed as 16 lowercase
 * hex digits; it is stable across slurmctld restarts and hosts.
 */
#ifndef BURST_CATEGORY_H
#define BURST_CATEGORY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BURST_CATEGORY_TEXT_LEN 17 /* 16 hex digits and NUL */

/*
 * The command a batch script runs: its first line that is neither blank nor
 * a comment (which skips the #! line and #SBATCH directives), with leading
 * and trailing blanks removed.  Returns a pointer into script and its length
 * in *len; NULL/0 when there is none (or script is NULL, e.g. salloc/srun).
 */
const char *burst_script_command(const char *script, size_t *len);

/* NULL account/name count as empty. */
uint64_t burst_category(const char *account, const char *name, const char *script);

void burst_category_text(uint64_t category, char out[BURST_CATEGORY_TEXT_LEN]);

#ifdef __cplusplus
}
#endif
#endif
