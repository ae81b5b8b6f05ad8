# build rules for burstd/src/provider/aws (appends to the variables declared in Makefile.am)
