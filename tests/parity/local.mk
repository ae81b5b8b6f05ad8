# Parity of burstd's and burstsim's decision cycles (appends to the variables declared in Makefile.am)
noinst_PROGRAMS += tests/parity/cycle-parity-check
tests_parity_cycle_parity_check_SOURCES = tests/parity/cycle_parity_check.cpp tests/parity/cycle_parity.cpp \
	tests/parity/cycle_parity.hpp
tests_parity_cycle_parity_check_LDADD = $(BURST_LIBS)

tests_unit_unit_tests_SOURCES += \
	tests/parity/cycle_parity.cpp \
	tests/parity/cycle_parity.hpp \
	tests/unit/parity/recorded_snapshots_parity_test.cpp \
	tests/unit/parity/simulated_snapshots_parity_test.cpp
