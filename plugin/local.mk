# build rules for plugin (appends to the variables declared in Makefile.am)
