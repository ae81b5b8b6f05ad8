# burstd daemon, config, logging, metrics, control socket
libburst_a_SOURCES += \
	burstd/src/app/burstd_config.hpp \
	burstd/src/app/config_line_lexer.cpp \
	burstd/src/app/config_line_lexer.hpp \
	burstd/src/app/config_parser.cpp \
	burstd/src/app/config_parser.hpp \
	burstd/src/app/config_values.cpp \
	burstd/src/app/config_values.hpp \
	burstd/src/app/log_level.cpp \
	burstd/src/app/log_level.hpp \
	burstd/src/app/param_map.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/app/config_parser_test.cpp \
	tests/unit/app/config_values_test.cpp
