# build rules for bench (appends to the variables declared in Makefile.am)
noinst_PROGRAMS += bench/burst_bench
bench_burst_bench_SOURCES = bench/burst_bench.cpp
bench_burst_bench_LDADD = $(BURST_LIBS)

# Fills a queue with held jobs for bench/plugin_snapshot.sh.
noinst_PROGRAMS += bench/submit_held
bench_submit_held_SOURCES = bench/submit_held.c
bench_submit_held_CFLAGS = $(AM_CFLAGS) -pthread
bench_submit_held_LDADD = $(SLURM_LIBS) -lpthread
