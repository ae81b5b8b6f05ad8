# build rules for burstd/src/provider/azure (appends to the variables declared in Makefile.am)
# Shares the OAuth token plumbing, secret-file check and key reader of
# burstd/src/provider/gcp.
libburst_a_SOURCES += \
	burstd/src/provider/azure/azure_provider_builder.cpp \
	burstd/src/provider/azure/azure_provider_builder.hpp \
	burstd/src/provider/azure/arm_error_classifier.cpp \
	burstd/src/provider/azure/arm_error_classifier.hpp \
	burstd/src/provider/azure/azure_config.cpp \
	burstd/src/provider/azure/azure_config.hpp \
	burstd/src/provider/azure/azure_credentials.cpp \
	burstd/src/provider/azure/azure_credentials.hpp \
	burstd/src/provider/azure/azure_provider.cpp \
	burstd/src/provider/azure/azure_provider.hpp \
	burstd/src/provider/azure/client_credentials_token_source.cpp \
	burstd/src/provider/azure/client_credentials_token_source.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/azure/arm_error_classifier_test.cpp \
	tests/unit/provider/azure/azure_config_test.cpp \
	tests/unit/provider/azure/azure_provider_test.cpp \
	tests/unit/provider/azure/azure_token_test.cpp
