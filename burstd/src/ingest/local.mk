# build rules for burstd/src/ingest (appends to the variables declared in Makefile.am)
