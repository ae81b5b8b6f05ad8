libburst_a_SOURCES += \
	burstd/src/model/billed_span.hpp \
	burstd/src/model/clock.hpp \
	burstd/src/model/cluster_state.cpp \
	burstd/src/model/cluster_state.hpp \
	burstd/src/model/feature_constraint.cpp \
	burstd/src/model/feature_constraint.hpp \
	burstd/src/model/gres.cpp \
	burstd/src/model/gres.hpp \
	burstd/src/model/group_recovery.hpp \
	burstd/src/model/hostlist.cpp \
	burstd/src/model/hostlist.hpp \
	burstd/src/model/instance.hpp \
	burstd/src/model/job.hpp \
	burstd/src/model/job_category.cpp \
	burstd/src/model/job_category.hpp \
	burstd/src/model/job_dependency.cpp \
	burstd/src/model/job_dependency.hpp \
	burstd/src/model/run_metrics.cpp \
	burstd/src/model/run_metrics.hpp \
	burstd/src/model/node.hpp \
	burstd/src/model/node_boot.cpp \
	burstd/src/model/node_boot.hpp \
	burstd/src/model/node_group.hpp \
	burstd/src/model/node_needs.cpp \
	burstd/src/model/node_needs.hpp \
	burstd/src/model/partition.hpp \
	burstd/src/model/partition_set.cpp \
	burstd/src/model/partition_set.hpp \
	burstd/src/model/pending_reason.cpp \
	burstd/src/model/pending_reason.hpp \
	burstd/src/model/provider_error.cpp \
	burstd/src/model/provider_error.hpp \
	burstd/src/model/provider_instance.hpp \
	burstd/src/model/share.hpp \
	burstd/src/model/slurm_duration.cpp \
	burstd/src/model/slurm_duration.hpp \
	burstd/src/model/snapshot.hpp \
	burstd/src/model/standby_jobs.cpp \
	burstd/src/model/standby_jobs.hpp \
	burstd/src/model/spend_booking.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/model/feature_constraint_test.cpp \
	tests/unit/model/gres_test.cpp \
	tests/unit/model/hostlist_test.cpp \
	tests/unit/model/job_dependency_test.cpp \
	tests/unit/model/job_layout_test.cpp \
	tests/unit/model/node_needs_test.cpp \
	tests/unit/model/job_category_test.cpp \
	tests/unit/model/partition_set_test.cpp \
	tests/unit/model/pending_reason_test.cpp \
	tests/unit/model/run_metrics_test.cpp \
	tests/unit/model/standby_jobs_test.cpp
