# burstd daemon, config, logging, metrics, control socket
libburst_a_SOURCES += \
	burstd/src/app/config/budget_conf.cpp \
	burstd/src/app/config/budget_conf.hpp \
	burstd/src/app/config/burstd_config.hpp \
	burstd/src/app/config/config_line_lexer.cpp \
	burstd/src/app/config/config_line_lexer.hpp \
	burstd/src/app/config/config_parser.cpp \
	burstd/src/app/config/config_parser.hpp \
	burstd/src/app/config/log_level.cpp \
	burstd/src/app/config/log_level.hpp \
	burstd/src/app/config/node_group_zones.cpp \
	burstd/src/app/config/node_group_zones.hpp \
	burstd/src/app/config/reload_scope.cpp \
	burstd/src/app/config/reload_scope.hpp \
	burstd/src/app/config/slurm_conf_timeouts.cpp \
	burstd/src/app/config/slurm_conf_timeouts.hpp \
	burstd/src/app/control/control_client.cpp \
	burstd/src/app/control/control_client.hpp \
	burstd/src/app/control/control_request.cpp \
	burstd/src/app/control/control_request.hpp \
	burstd/src/app/control/control_server.cpp \
	burstd/src/app/control/control_server.hpp \
	burstd/src/app/control/job_explanation.cpp \
	burstd/src/app/control/job_explanation.hpp \
	burstd/src/app/control/status_text.cpp \
	burstd/src/app/control/status_text.hpp \
	burstd/src/app/cycle/job_why.cpp \
	burstd/src/app/cycle/job_why.hpp \
	burstd/src/app/cycle/launch_fence.cpp \
	burstd/src/app/cycle/launch_fence.hpp \
	burstd/src/app/cycle/policy_cycle.cpp \
	burstd/src/app/cycle/policy_cycle.hpp \
	burstd/src/app/cycle/timed_policy.hpp \
	burstd/src/app/daemon.cpp \
	burstd/src/app/daemon.hpp \
	burstd/src/app/daemon_seams.hpp \
	burstd/src/app/heap_tuning.cpp \
	burstd/src/app/heap_tuning.hpp \
	burstd/src/app/instances/allocation_follower.cpp \
	burstd/src/app/instances/allocation_follower.hpp \
	burstd/src/app/instances/group_health_board.cpp \
	burstd/src/app/instances/group_health_board.hpp \
	burstd/src/app/instances/instance_manager.cpp \
	burstd/src/app/instances/instance_manager.hpp \
	burstd/src/app/instances/locked_actuator.hpp \
	burstd/src/app/instances/partial_job_launch.cpp \
	burstd/src/app/instances/partial_job_launch.hpp \
	burstd/src/app/instances/placement_backoff.cpp \
	burstd/src/app/instances/placement_backoff.hpp \
	burstd/src/app/instances/provider_outcomes.hpp \
	burstd/src/app/instances/random_source.hpp \
	burstd/src/app/instances/retry_backoff.cpp \
	burstd/src/app/instances/retry_backoff.hpp \
	burstd/src/app/instances/sleeper.hpp \
	burstd/src/app/logger.cpp \
	burstd/src/app/logger.hpp \
	burstd/src/app/metrics/burstd_metrics.cpp \
	burstd/src/app/metrics/burstd_metrics.hpp \
	burstd/src/app/metrics/metrics_http.cpp \
	burstd/src/app/metrics/metrics_http.hpp \
	burstd/src/app/metrics/metrics_server.cpp \
	burstd/src/app/metrics/metrics_server.hpp \
	burstd/src/app/metrics/prometheus_text.cpp \
	burstd/src/app/metrics/prometheus_text.hpp \
	burstd/src/app/metrics/run_metrics_feed.cpp \
	burstd/src/app/metrics/run_metrics_feed.hpp \
	burstd/src/app/metrics/run_metrics_json.cpp \
	burstd/src/app/metrics/run_metrics_json.hpp \
	burstd/src/app/service_notifier.cpp \
	burstd/src/app/service_notifier.hpp \
	burstd/src/app/state_dir_lock.cpp \
	burstd/src/app/state_dir_lock.hpp \
	burstd/src/app/warm/interactive_holds.cpp \
	burstd/src/app/warm/interactive_holds.hpp \
	burstd/src/app/warm/placeholder_pool.cpp \
	burstd/src/app/warm/placeholder_pool.hpp \
	burstd/src/app/warm/scavenger_placement.cpp \
	burstd/src/app/warm/scavenger_placement.hpp \
	burstd/src/app/warm/settling_jobs.hpp

sbin_PROGRAMS += burstd/burstd
burstd_burstd_SOURCES = burstd/src/app/burstd_main.cpp
burstd_burstd_LDADD = $(BURST_LIBS)

dist_man_MANS += man/burstd.8 man/burstd.conf.5

tests_unit_unit_tests_SOURCES += \
	tests/unit/app/config/config_parser_test.cpp \
	tests/unit/app/warm/interactive_holds_test.cpp \
	tests/unit/app/warm/placeholder_pool_test.cpp \
	tests/unit/app/warm/scavenger_placement_test.cpp \
	tests/unit/app/config/node_group_zones_test.cpp \
	tests/unit/app/config/reload_scope_test.cpp \
	tests/unit/app/config/slurm_conf_timeouts_test.cpp \
	tests/unit/app/control/control_request_test.cpp \
	tests/unit/app/control/job_explanation_test.cpp \
	tests/unit/app/control/status_text_test.cpp \
	tests/unit/app/cycle/job_why_test.cpp \
	tests/unit/app/cycle/launch_fence_test.cpp \
	tests/unit/app/cycle/policy_cycle_budget_test.cpp \
	tests/unit/app/cycle/policy_cycle_fakes.hpp \
	tests/unit/app/cycle/policy_cycle_route_launch_test.cpp \
	tests/unit/app/cycle/policy_cycle_test.cpp \
	tests/unit/app/cycle/policy_cycle_warm_test.cpp \
	tests/unit/app/cycle/policy_cycle_threads_test.cpp \
	tests/unit/app/daemon_test.cpp \
	tests/unit/app/instances/allocation_follower_test.cpp \
	tests/unit/app/instances/group_health_board_test.cpp \
	tests/unit/app/instances/instance_manager_test.cpp \
	tests/unit/app/instances/placement_backoff_test.cpp \
	tests/unit/app/instances/retry_backoff_test.cpp \
	tests/unit/app/logger_test.cpp \
	tests/unit/app/metrics/metrics_test.cpp \
	tests/unit/app/metrics/run_metrics_feed_test.cpp \
	tests/unit/app/service_notifier_test.cpp \
	tests/unit/app/state_dir_lock_test.cpp
