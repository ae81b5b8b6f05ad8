# build rules for burstd/src/slurm (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/slurm/job_cpu_change.cpp \
	burstd/src/slurm/job_cpu_change.hpp \
	burstd/src/slurm/job_allocation_probe.hpp \
	burstd/src/slurm/libslurm_actuator.cpp \
	burstd/src/slurm/libslurm_actuator.hpp \
	burstd/src/slurm/libslurm_compat.hpp \
	burstd/src/slurm/libslurm_job_probe.cpp \
	burstd/src/slurm/libslurm_job_probe.hpp \
	burstd/src/slurm/slurm_actuator.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/slurm/job_cpu_change_test.cpp \
	tests/unit/slurm/libslurm_actuator_test.cpp

# Drives the actuator from tests/slurm/test_actuator.sh against a real cluster.
noinst_PROGRAMS += tests/slurm/burst_actuate
tests_slurm_burst_actuate_SOURCES = tests/slurm/burst_actuate.cpp
tests_slurm_burst_actuate_LDADD = $(BURST_LIBS)
