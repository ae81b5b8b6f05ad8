# build rules for bench (appends to the variables declared in Makefile.am)
