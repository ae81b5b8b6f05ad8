# build rules for burstd/src/provider/local (appends to the variables declared in Makefile.am)
