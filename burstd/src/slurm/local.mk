# build rules for burstd/src/slurm (appends to the variables declared in Makefile.am)
