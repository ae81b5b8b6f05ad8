# build rules for burstd/tools (appends to the variables declared in Makefile.am)
