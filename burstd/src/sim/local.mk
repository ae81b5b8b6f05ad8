# build rules for burstd/src/sim and burstsim (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/sim/trace.cpp \
	burstd/src/sim/trace.hpp \
	burstd/src/sim/unit_draw.hpp \
	burstd/src/sim/swf_parser.cpp \
	burstd/src/sim/swf_parser.hpp \
	burstd/src/sim/sacct_parser.cpp \
	burstd/src/sim/sacct_parser.hpp \
	burstd/src/sim/trace_loader.cpp \
	burstd/src/sim/trace_loader.hpp \
	burstd/src/sim/sim_config.hpp \
	burstd/src/sim/priority_config.hpp \
	burstd/src/sim/fair_tree.cpp \
	burstd/src/sim/fair_tree.hpp \
	burstd/src/sim/priority_model.cpp \
	burstd/src/sim/priority_model.hpp \
	burstd/src/sim/priority_spec.cpp \
	burstd/src/sim/priority_spec.hpp \
	burstd/src/sim/simulator.cpp \
	burstd/src/sim/simulator.hpp \
	burstd/src/sim/reward_profit.cpp \
	burstd/src/sim/reward_profit.hpp \
	burstd/src/sim/sim_metrics.cpp \
	burstd/src/sim/sim_metrics.hpp \
	burstd/src/sim/group_spec.cpp \
	burstd/src/sim/group_spec.hpp \
	burstd/src/sim/plain_number.hpp \
	burstd/src/sim/capacity_shortage.cpp \
	burstd/src/sim/capacity_shortage.hpp \
	burstd/src/sim/group_launches.cpp \
	burstd/src/sim/group_launches.hpp \
	burstd/src/sim/clairvoyant_policy.cpp \
	burstd/src/sim/clairvoyant_policy.hpp \
	burstd/src/sim/core_profile.cpp \
	burstd/src/sim/core_profile.hpp \
	burstd/src/sim/cloud_work_bound.cpp \
	burstd/src/sim/cloud_work_bound.hpp \
	burstd/src/sim/bucket_prices.cpp \
	burstd/src/sim/bucket_prices.hpp \
	burstd/src/sim/objective_bound.cpp \
	burstd/src/sim/objective_bound.hpp \
	burstd/src/sim/clairvoyant_reference.cpp \
	burstd/src/sim/clairvoyant_reference.hpp \
	burstd/src/sim/workflow.cpp \
	burstd/src/sim/workflow.hpp \
	burstd/src/sim/wfcommons_parser.cpp \
	burstd/src/sim/wfcommons_parser.hpp \
	burstd/src/sim/dax_parser.cpp \
	burstd/src/sim/dax_parser.hpp \
	burstd/src/sim/workflow_loader.cpp \
	burstd/src/sim/workflow_loader.hpp \
	burstd/src/sim/workflow_arrivals.cpp \
	burstd/src/sim/workflow_arrivals.hpp \
	burstd/src/sim/workflow_metrics.cpp \
	burstd/src/sim/workflow_metrics.hpp \
	burstd/src/sim/workload_spec.cpp \
	burstd/src/sim/workload_spec.hpp \
	burstd/src/sim/gatk_workload.cpp \
	burstd/src/sim/gatk_workload.hpp \
	burstd/src/sim/blast_workload.cpp \
	burstd/src/sim/blast_workload.hpp \
	burstd/src/sim/generated_workload.cpp \
	burstd/src/sim/generated_workload.hpp \
	burstd/src/sim/smowton_scenario.cpp \
	burstd/src/sim/smowton_scenario.hpp \
	burstd/src/sim/zheng_scenario.cpp \
	burstd/src/sim/zheng_scenario.hpp \
	burstd/src/sim/svg_plot.cpp \
	burstd/src/sim/svg_plot.hpp \
	burstd/src/sim/burstsim_cli.cpp \
	burstd/src/sim/burstsim_cli.hpp

bin_PROGRAMS += burstsim
burstsim_SOURCES = burstd/tools/burstsim_main.cpp
burstsim_LDADD = $(BURST_LIBS)
dist_man_MANS += man/burstsim.1

noinst_PROGRAMS += tests/slurm/burst_fairtree
tests_slurm_burst_fairtree_SOURCES = tests/slurm/burst_fairtree.cpp
tests_slurm_burst_fairtree_LDADD = $(BURST_LIBS)

tests_unit_unit_tests_SOURCES += \
	tests/unit/sim/swf_parser_test.cpp \
	tests/unit/sim/sacct_parser_test.cpp \
	tests/unit/sim/trace_loader_test.cpp \
	tests/unit/sim/group_spec_test.cpp \
	tests/unit/sim/simulator_stockout_test.cpp \
	tests/unit/sim/simulator_test.cpp \
	tests/unit/sim/priority_model_test.cpp \
	tests/unit/sim/fair_tree_test.cpp \
	tests/unit/sim/priority_spec_test.cpp \
	tests/unit/sim/simulator_fairshare_test.cpp \
	tests/unit/sim/burstsim_priority_cli_test.cpp \
	tests/unit/sim/simulator_budget_test.cpp \
	tests/unit/sim/reward_profit_test.cpp \
	tests/unit/sim/sim_metrics_test.cpp \
	tests/unit/sim/burstsim_cli_harness.hpp \
	tests/unit/sim/sim_fixtures.hpp \
	tests/unit/sim/burstsim_cli_test.cpp \
	tests/unit/sim/clairvoyant_policy_test.cpp \
	tests/unit/sim/core_profile_test.cpp \
	tests/unit/sim/cloud_work_bound_test.cpp \
	tests/unit/sim/bucket_prices_test.cpp \
	tests/unit/sim/objective_bound_test.cpp \
	tests/unit/sim/clairvoyant_reference_test.cpp \
	tests/unit/sim/workflow_parser_test.cpp \
	tests/unit/sim/workflow_arrivals_test.cpp \
	tests/unit/sim/simulator_dependency_test.cpp \
	tests/unit/sim/burstsim_workflow_cli_test.cpp \
	tests/unit/sim/workload_generator_test.cpp \
	tests/unit/sim/paper_reproduction_test.cpp \
	tests/unit/sim/svg_plot_test.cpp
