# build rules for burstd/src/policy (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/policy/decision.hpp \
	burstd/src/policy/policy.hpp \
	burstd/src/policy/policy_params.cpp \
	burstd/src/policy/policy_params.hpp \
	burstd/src/policy/policy_factory.cpp \
	burstd/src/policy/policy_factory.hpp \
	burstd/src/policy/site_view.cpp \
	burstd/src/policy/site_view.hpp \
	burstd/src/policy/expander.hpp \
	burstd/src/policy/expander_factory.cpp \
	burstd/src/policy/least_waste_expander.cpp \
	burstd/src/policy/least_waste_expander.hpp \
	burstd/src/policy/price_expander.cpp \
	burstd/src/policy/price_expander.hpp \
	burstd/src/policy/priority_expander.cpp \
	burstd/src/policy/priority_expander.hpp \
	burstd/src/policy/first_fit_index.cpp \
	burstd/src/policy/first_fit_index.hpp \
	burstd/src/policy/runtime_estimator.cpp \
	burstd/src/policy/runtime_estimator.hpp \
	burstd/src/policy/never_policy.cpp \
	burstd/src/policy/never_policy.hpp \
	burstd/src/policy/always_policy.cpp \
	burstd/src/policy/always_policy.hpp \
	burstd/src/policy/threshold_policy.cpp \
	burstd/src/policy/threshold_policy.hpp \
	burstd/src/policy/boot_window_policy.cpp \
	burstd/src/policy/boot_window_policy.hpp \
	burstd/src/policy/predictive_policy.cpp \
	burstd/src/policy/predictive_policy.hpp \
	burstd/src/policy/fixed_delay_policy.cpp \
	burstd/src/policy/fixed_delay_policy.hpp \
	burstd/src/policy/runtime_ratio_model.cpp \
	burstd/src/policy/runtime_ratio_model.hpp \
	burstd/src/policy/local_start_forecast.cpp \
	burstd/src/policy/local_start_forecast.hpp \
	burstd/src/policy/forecast_policy.cpp \
	burstd/src/policy/forecast_policy.hpp \
	burstd/src/policy/token_waves.cpp \
	burstd/src/policy/token_waves.hpp \
	burstd/src/policy/throughput_profile.cpp \
	burstd/src/policy/throughput_profile.hpp \
	burstd/src/policy/resource_profile.cpp \
	burstd/src/policy/resource_profile.hpp \
	burstd/src/policy/budget_split.cpp \
	burstd/src/policy/budget_split.hpp \
	burstd/src/policy/pfa_policy.cpp \
	burstd/src/policy/pfa_policy.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/policy/policy_test_state.hpp \
	tests/unit/policy/policy_params_test.cpp \
	tests/unit/policy/policy_factory_test.cpp \
	tests/unit/policy/site_view_test.cpp \
	tests/unit/policy/expander_factory_test.cpp \
	tests/unit/policy/first_fit_index_test.cpp \
	tests/unit/policy/runtime_estimator_test.cpp \
	tests/unit/policy/always_policy_test.cpp \
	tests/unit/policy/threshold_policy_test.cpp \
	tests/unit/policy/boot_window_policy_test.cpp \
	tests/unit/policy/predictive_policy_test.cpp \
	tests/unit/policy/fixed_delay_policy_test.cpp \
	tests/unit/policy/runtime_ratio_model_test.cpp \
	tests/unit/policy/local_start_forecast_test.cpp \
	tests/unit/policy/forecast_policy_test.cpp \
	tests/unit/policy/pfa_policy_test.cpp
