# build rules for burstd/src/provider/gcp (appends to the variables declared in Makefile.am)
libburst_a_SOURCES += \
	burstd/src/provider/gcp/gcp_provider_builder.cpp \
	burstd/src/provider/gcp/gcp_provider_builder.hpp \
	burstd/src/provider/gcp/gce_error_classifier.cpp \
	burstd/src/provider/gcp/gce_error_classifier.hpp \
	burstd/src/provider/gcp/gce_labels.cpp \
	burstd/src/provider/gcp/gce_labels.hpp \
	burstd/src/provider/gcp/gce_provider.cpp \
	burstd/src/provider/gcp/gce_provider.hpp \
	burstd/src/provider/gcp/gcp_config.cpp \
	burstd/src/provider/gcp/gcp_config.hpp \
	burstd/src/provider/gcp/gcp_token_source_factory.cpp \
	burstd/src/provider/gcp/gcp_token_source_factory.hpp \
	burstd/src/provider/gcp/metadata_token_source.cpp \
	burstd/src/provider/gcp/metadata_token_source.hpp \
	burstd/src/provider/gcp/request_uuid.cpp \
	burstd/src/provider/gcp/request_uuid.hpp \
	burstd/src/provider/gcp/rs256_jwt.cpp \
	burstd/src/provider/gcp/rs256_jwt.hpp \
	burstd/src/provider/gcp/service_account_key.cpp \
	burstd/src/provider/gcp/service_account_key.hpp \
	burstd/src/provider/gcp/service_account_token_source.cpp \
	burstd/src/provider/gcp/service_account_token_source.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/gcp/gce_error_classifier_test.cpp \
	tests/unit/provider/gcp/gce_labels_test.cpp \
	tests/unit/provider/gcp/gce_provider_test.cpp \
	tests/unit/provider/gcp/gcp_config_test.cpp \
	tests/unit/provider/gcp/gcp_token_test.cpp \
	tests/unit/provider/http/queued_transport.hpp
