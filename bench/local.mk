# build rules for bench (appends to the variables declared in Makefile.am)
noinst_PROGRAMS += bench/burst_bench
bench_burst_bench_SOURCES = bench/burst_bench.cpp
bench_burst_bench_LDADD = $(BURST_LIBS)
