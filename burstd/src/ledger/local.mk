# build rules for burstd/src/ledger (appends to the variables declared in Makefile.am)
