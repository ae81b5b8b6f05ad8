# build rules for burstd/src/sim (appends to the variables declared in Makefile.am)
