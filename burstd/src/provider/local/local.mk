# build rules for burstd/src/provider/local (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/provider/local/local_provider_builder.cpp \
	burstd/src/provider/local/local_provider_builder.hpp \
	burstd/src/provider/local/local_provider.cpp \
	burstd/src/provider/local/local_provider.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/local/local_provider_test.cpp

# Drives the provider from tests/slurm/test_local_provider.sh with a real slurmd.
noinst_PROGRAMS += tests/slurm/burst_local_provider
tests_slurm_burst_local_provider_SOURCES = tests/slurm/burst_local_provider.cpp
tests_slurm_burst_local_provider_LDADD = $(BURST_LIBS)
