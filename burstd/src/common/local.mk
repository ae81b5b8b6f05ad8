# build rules for burstd/src/common (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/common/config_values.cpp \
	burstd/src/common/config_values.hpp \
	burstd/src/common/json_fields.hpp \
	burstd/src/common/json_ref.hpp \
	burstd/src/common/json_text.hpp \
	burstd/src/common/param_map.hpp \
	burstd/src/common/plain_number.hpp \
	burstd/src/common/registry.hpp \
	burstd/src/common/text.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/common/config_values_test.cpp
