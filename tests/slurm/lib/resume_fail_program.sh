#!/bin/bash
# The test cluster's default ResumeFailProgram: slurmctld gave up on these
# nodes (ResumeTimeout) and will not call the SuspendProgram for them, so their
# slurmd, if one started late, is stopped here.
#   resume_fail_program.sh HOSTLIST
POWER_EVENT=resume-fail exec "$(dirname "$0")/suspend_program.sh" "$@"
