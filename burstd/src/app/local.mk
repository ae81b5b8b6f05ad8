# burstd daemon, config, logging, metrics, control socket
libburst_a_SOURCES += \
	burstd/src/app/allocation_follower.cpp \
	burstd/src/app/allocation_follower.hpp \
	burstd/src/app/budget_conf.cpp \
	burstd/src/app/budget_conf.hpp \
	burstd/src/app/burstd_config.hpp \
	burstd/src/app/heap_tuning.cpp \
	burstd/src/app/heap_tuning.hpp \
	burstd/src/app/job_explanation.cpp \
	burstd/src/app/job_explanation.hpp \
	burstd/src/app/job_why.cpp \
	burstd/src/app/job_why.hpp \
	burstd/src/app/burstd_metrics.cpp \
	burstd/src/app/burstd_metrics.hpp \
	burstd/src/app/config_line_lexer.cpp \
	burstd/src/app/config_line_lexer.hpp \
	burstd/src/app/config_parser.cpp \
	burstd/src/app/config_parser.hpp \
	burstd/src/app/control_client.cpp \
	burstd/src/app/control_client.hpp \
	burstd/src/app/control_request.cpp \
	burstd/src/app/control_request.hpp \
	burstd/src/app/control_server.cpp \
	burstd/src/app/control_server.hpp \
	burstd/src/app/daemon.cpp \
	burstd/src/app/daemon.hpp \
	burstd/src/app/daemon_seams.hpp \
	burstd/src/app/group_health_board.cpp \
	burstd/src/app/group_health_board.hpp \
	burstd/src/app/instance_manager.cpp \
	burstd/src/app/instance_manager.hpp \
	burstd/src/app/launch_fence.cpp \
	burstd/src/app/placement_backoff.cpp \
	burstd/src/app/placement_backoff.hpp \
	burstd/src/app/launch_fence.hpp \
	burstd/src/app/locked_actuator.hpp \
	burstd/src/app/log_level.cpp \
	burstd/src/app/log_level.hpp \
	burstd/src/app/logger.cpp \
	burstd/src/app/logger.hpp \
	burstd/src/app/metrics_http.cpp \
	burstd/src/app/metrics_http.hpp \
	burstd/src/app/metrics_server.cpp \
	burstd/src/app/metrics_server.hpp \
	burstd/src/app/node_group_zones.cpp \
	burstd/src/app/node_group_zones.hpp \
	burstd/src/app/policy_cycle.cpp \
	burstd/src/app/policy_cycle.hpp \
	burstd/src/app/prometheus_text.cpp \
	burstd/src/app/prometheus_text.hpp \
	burstd/src/app/provider_outcomes.hpp \
	burstd/src/app/random_source.hpp \
	burstd/src/app/reload_scope.cpp \
	burstd/src/app/reload_scope.hpp \
	burstd/src/app/retry_backoff.cpp \
	burstd/src/app/retry_backoff.hpp \
	burstd/src/app/run_metrics_feed.cpp \
	burstd/src/app/run_metrics_feed.hpp \
	burstd/src/app/run_metrics_json.cpp \
	burstd/src/app/run_metrics_json.hpp \
	burstd/src/app/service_notifier.cpp \
	burstd/src/app/service_notifier.hpp \
	burstd/src/app/sleeper.hpp \
	burstd/src/app/slurm_conf_timeouts.cpp \
	burstd/src/app/slurm_conf_timeouts.hpp \
	burstd/src/app/state_dir_lock.cpp \
	burstd/src/app/state_dir_lock.hpp \
	burstd/src/app/status_text.cpp \
	burstd/src/app/status_text.hpp \
	burstd/src/app/timed_policy.hpp

sbin_PROGRAMS += burstd/burstd
burstd_burstd_SOURCES = burstd/src/app/burstd_main.cpp
burstd_burstd_LDADD = $(BURST_LIBS)

dist_man_MANS += man/burstd.8 man/burstd.conf.5

tests_unit_unit_tests_SOURCES += \
	tests/unit/app/allocation_follower_test.cpp \
	tests/unit/app/config_parser_test.cpp \
	tests/unit/app/control_request_test.cpp \
	tests/unit/app/daemon_test.cpp \
	tests/unit/app/group_health_board_test.cpp \
	tests/unit/app/instance_manager_test.cpp \
	tests/unit/app/job_explanation_test.cpp \
	tests/unit/app/job_why_test.cpp \
	tests/unit/app/launch_fence_test.cpp \
	tests/unit/app/logger_test.cpp \
	tests/unit/app/metrics_test.cpp \
	tests/unit/app/node_group_zones_test.cpp \
	tests/unit/app/placement_backoff_test.cpp \
	tests/unit/app/policy_cycle_budget_test.cpp \
	tests/unit/app/policy_cycle_fakes.hpp \
	tests/unit/app/policy_cycle_route_launch_test.cpp \
	tests/unit/app/policy_cycle_test.cpp \
	tests/unit/app/reload_scope_test.cpp \
	tests/unit/app/retry_backoff_test.cpp \
	tests/unit/app/run_metrics_feed_test.cpp \
	tests/unit/app/service_notifier_test.cpp \
	tests/unit/app/slurm_conf_timeouts_test.cpp \
	tests/unit/app/state_dir_lock_test.cpp \
	tests/unit/app/status_text_test.cpp
