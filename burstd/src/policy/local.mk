libburst_a_SOURCES += \
	burstd/src/policy/decision.hpp \
	burstd/src/policy/policy.hpp
