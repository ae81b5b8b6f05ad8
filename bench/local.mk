# build rules for bench (appends to the variables declared in Makefile.am)
noinst_PROGRAMS += bench/burst_bench
bench_burst_bench_SOURCES = bench/burst_bench.cpp bench/bench_args.cpp bench/bench_args.hpp \
	bench/decide_stats.cpp bench/decide_stats.hpp
# The traces it reads by default: the repository's copy (tests/data/SOURCES.md).
BENCH_TRACE_DIR_FLAG = -DBURST_BENCH_TRACE_DIR='"$(abs_top_srcdir)/tests/data/traces/swf"'
bench_burst_bench_CPPFLAGS = $(AM_CPPFLAGS) $(BENCH_TRACE_DIR_FLAG)
bench_burst_bench_LDADD = $(BURST_LIBS)

# Fills a queue with held jobs for bench/plugin_snapshot.sh.
noinst_PROGRAMS += bench/submit_held
bench_submit_held_SOURCES = bench/submit_held.c
bench_submit_held_CFLAGS = $(AM_CFLAGS) -pthread
bench_submit_held_LDADD = $(SLURM_LIBS) -lpthread

# The bench's own logic (its command line, tail and growth) is unit-tested.
tests_unit_unit_tests_SOURCES += bench/bench_args.cpp bench/bench_args.hpp bench/decide_stats.cpp \
	bench/decide_stats.hpp tests/unit/bench/burst_bench_test.cpp
tests_unit_unit_tests_CPPFLAGS += -I$(top_srcdir)/bench $(BENCH_TRACE_DIR_FLAG)

# burstd's ingest and decision cycle on a recorded plugin stream (issue 29).
noinst_PROGRAMS += bench/ingest_cycle
bench_ingest_cycle_SOURCES = bench/ingest_cycle.cpp
bench_ingest_cycle_LDADD = $(BURST_LIBS)
