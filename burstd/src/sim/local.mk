# build rules for burstd/src/sim and burstsim (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/sim/replay/snapshot_replay.cpp \
	burstd/src/sim/replay/snapshot_replay.hpp \
	burstd/src/sim/trace/trace.cpp \
	burstd/src/sim/trace/trace.hpp \
	burstd/src/sim/unit_draw.hpp \
	burstd/src/sim/trace/swf_parser.cpp \
	burstd/src/sim/trace/swf_parser.hpp \
	burstd/src/sim/trace/sacct_parser.cpp \
	burstd/src/sim/trace/sacct_parser.hpp \
	burstd/src/sim/trace/trace_loader.cpp \
	burstd/src/sim/trace/trace_scaling.cpp \
	burstd/src/sim/trace/trace_scaling.hpp \
	burstd/src/sim/trace/trace_interactive.cpp \
	burstd/src/sim/trace/trace_interactive.hpp \
	burstd/src/sim/trace/trace_loader.hpp \
	burstd/src/sim/engine/sim_config.hpp \
	burstd/src/sim/priority/priority_config.hpp \
	burstd/src/sim/priority/fair_tree.cpp \
	burstd/src/sim/priority/fair_tree.hpp \
	burstd/src/sim/priority/priority_model.cpp \
	burstd/src/sim/priority/priority_model.hpp \
	burstd/src/sim/priority/priority_spec.cpp \
	burstd/src/sim/priority/priority_spec.hpp \
	burstd/src/sim/engine/simulator.cpp \
	burstd/src/sim/engine/simulator.hpp \
	burstd/src/sim/engine/event_queue.cpp \
	burstd/src/sim/engine/event_queue.hpp \
	burstd/src/sim/engine/cloud_fleet.cpp \
	burstd/src/sim/engine/cloud_fleet.hpp \
	burstd/src/sim/engine/local_scheduler.cpp \
	burstd/src/sim/engine/local_scheduler.hpp \
	burstd/src/sim/engine/budget_booking.cpp \
	burstd/src/sim/engine/budget_booking.hpp \
	burstd/src/sim/engine/sim_action_sink.cpp \
	burstd/src/sim/engine/sim_action_sink.hpp \
	burstd/src/sim/engine/sim_jobs.cpp \
	burstd/src/sim/engine/sim_jobs.hpp \
	burstd/src/sim/engine/sim_snapshot.cpp \
	burstd/src/sim/engine/sim_snapshot.hpp \
	burstd/src/sim/engine/sim_site.cpp \
	burstd/src/sim/engine/sim_site.hpp \
	burstd/src/sim/report/reward_profit.cpp \
	burstd/src/sim/report/reward_profit.hpp \
	burstd/src/sim/report/sim_metrics.cpp \
	burstd/src/sim/report/sim_metrics.hpp \
	burstd/tools/burstsim/group_spec.cpp \
	burstd/tools/burstsim/group_spec.hpp \
	burstd/src/sim/engine/capacity_shortage.cpp \
	burstd/src/sim/engine/capacity_shortage.hpp \
	burstd/src/sim/engine/group_launches.cpp \
	burstd/src/sim/engine/group_launches.hpp \
	burstd/src/sim/reference/clairvoyant_policy.cpp \
	burstd/src/sim/reference/clairvoyant_policy.hpp \
	burstd/src/sim/reference/core_profile.cpp \
	burstd/src/sim/reference/core_profile.hpp \
	burstd/src/sim/reference/cloud_work_bound.cpp \
	burstd/src/sim/reference/cloud_work_bound.hpp \
	burstd/src/sim/reference/bucket_prices.cpp \
	burstd/src/sim/reference/bucket_prices.hpp \
	burstd/src/sim/reference/objective_bound.cpp \
	burstd/src/sim/reference/objective_bound.hpp \
	burstd/src/sim/reference/clairvoyant_reference.cpp \
	burstd/src/sim/reference/clairvoyant_reference.hpp \
	burstd/src/sim/workload/workflow.cpp \
	burstd/src/sim/workload/workflow.hpp \
	burstd/src/sim/workload/wfcommons_parser.cpp \
	burstd/src/sim/workload/wfcommons_parser.hpp \
	burstd/src/sim/workload/dax_parser.cpp \
	burstd/src/sim/workload/dax_parser.hpp \
	burstd/src/sim/workload/workflow_loader.cpp \
	burstd/src/sim/workload/workflow_loader.hpp \
	burstd/src/sim/workload/workflow_arrivals.cpp \
	burstd/src/sim/workload/workflow_arrivals.hpp \
	burstd/src/sim/report/workflow_metrics.cpp \
	burstd/src/sim/report/workflow_metrics.hpp \
	burstd/src/sim/workload/workload_spec.cpp \
	burstd/src/sim/workload/workload_spec.hpp \
	burstd/src/sim/workload/gatk_workload.cpp \
	burstd/src/sim/workload/gatk_workload.hpp \
	burstd/src/sim/workload/blast_workload.cpp \
	burstd/src/sim/workload/blast_workload.hpp \
	burstd/src/sim/workload/htc_workload.cpp \
	burstd/src/sim/workload/htc_workload.hpp \
	burstd/src/sim/workload/generated_workload.cpp \
	burstd/src/sim/workload/generated_workload.hpp \
	burstd/src/sim/scenario/smowton_scenario.cpp \
	burstd/src/sim/scenario/smowton_scenario.hpp \
	burstd/src/sim/scenario/zheng_scenario.cpp \
	burstd/src/sim/scenario/zheng_scenario.hpp \
	burstd/src/sim/report/svg_plot.cpp \
	burstd/src/sim/report/svg_plot.hpp \
	burstd/src/sim/report/forecast_evaluation.cpp \
	burstd/src/sim/report/forecast_evaluation.hpp \
	burstd/tools/burstsim/burstsim_cli.cpp \
	burstd/tools/burstsim/burstsim_cli.hpp \
	burstd/tools/burstsim/forecast_table.cpp \
	burstd/tools/burstsim/forecast_table.hpp

bin_PROGRAMS += burstsim
burstsim_SOURCES = burstd/tools/burstsim/burstsim_main.cpp
burstsim_LDADD = $(BURST_LIBS)
dist_man_MANS += man/burstsim.1

noinst_PROGRAMS += tests/slurm/burst_fairtree
tests_slurm_burst_fairtree_SOURCES = tests/slurm/burst_fairtree.cpp
tests_slurm_burst_fairtree_LDADD = $(BURST_LIBS)

tests_unit_unit_tests_SOURCES += \
	tests/unit/sim/trace/swf_parser_test.cpp \
	tests/unit/sim/trace/sacct_parser_test.cpp \
	tests/unit/sim/trace/trace_loader_test.cpp \
	tests/unit/tools/burstsim/group_spec_test.cpp \
	tests/unit/sim/engine/simulator_stockout_test.cpp \
	tests/unit/sim/engine/simulator_test.cpp \
	tests/unit/sim/engine/event_queue_test.cpp \
	tests/unit/sim/engine/local_scheduler_test.cpp \
	tests/unit/sim/trace/trace_interactive_test.cpp \
	tests/unit/sim/engine/cloud_fleet_test.cpp \
	tests/unit/sim/engine/sim_snapshot_test.cpp \
	tests/unit/sim/priority/priority_model_test.cpp \
	tests/unit/sim/priority/fair_tree_test.cpp \
	tests/unit/sim/priority/priority_spec_test.cpp \
	tests/unit/sim/engine/simulator_fairshare_test.cpp \
	tests/unit/tools/burstsim/burstsim_priority_cli_test.cpp \
	tests/unit/sim/engine/simulator_activity_test.cpp \
	tests/unit/sim/engine/simulator_budget_test.cpp \
	tests/unit/sim/report/reward_profit_test.cpp \
	tests/unit/sim/report/sim_metrics_test.cpp \
	tests/unit/tools/burstsim/burstsim_cli_harness.hpp \
	tests/unit/sim/sim_fixtures.hpp \
	tests/unit/tools/burstsim/burstsim_cli_test.cpp \
	tests/unit/sim/reference/clairvoyant_policy_test.cpp \
	tests/unit/sim/reference/core_profile_test.cpp \
	tests/unit/sim/reference/cloud_work_bound_test.cpp \
	tests/unit/sim/reference/bucket_prices_test.cpp \
	tests/unit/sim/reference/objective_bound_test.cpp \
	tests/unit/sim/reference/clairvoyant_reference_test.cpp \
	tests/unit/sim/workload/workflow_parser_test.cpp \
	tests/unit/sim/workload/workflow_arrivals_test.cpp \
	tests/unit/sim/engine/simulator_dependency_test.cpp \
	tests/unit/sim/engine/simulator_threads_test.cpp \
	tests/unit/tools/burstsim/burstsim_workflow_cli_test.cpp \
	tests/unit/tools/burstsim/burstsim_threads_cli_test.cpp \
	tests/unit/tools/burstsim/burstsim_interactive_cli_test.cpp \
	tests/unit/tools/burstsim/burstsim_forecast_cli_test.cpp \
	tests/unit/sim/workload/workload_generator_test.cpp \
	tests/unit/sim/workload/htc_workload_test.cpp \
	tests/unit/sim/scenario/paper_reproduction_test.cpp \
	tests/unit/sim/report/svg_plot_test.cpp \
	tests/unit/sim/report/forecast_evaluation_test.cpp
