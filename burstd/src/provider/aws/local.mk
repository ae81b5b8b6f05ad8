# build rules for burstd/src/provider/aws (appends to the variables declared in Makefile.am)
# The provider-neutral HTTP layer (burstd/src/provider/http) is built from here
# too, so that adding it needed no edit to Makefile.am.
libburst_a_SOURCES += \
	burstd/src/provider/aws/aws_provider_builder.cpp \
	burstd/src/provider/aws/aws_provider_builder.hpp \
	burstd/src/provider/http/http_message.cpp \
	burstd/src/provider/http/http_message.hpp \
	burstd/src/provider/http/http_request_parser.cpp \
	burstd/src/provider/http/http_request_parser.hpp \
	burstd/src/provider/aws/aws_credentials.hpp \
	burstd/src/provider/aws/sigv4_signer.cpp \
	burstd/src/provider/aws/sigv4_signer.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/sigv4_suite_test.cpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/sigv4_signer_test.cpp \
	tests/unit/provider/http/http_request_parser_test.cpp
libburst_a_SOURCES += \
	burstd/src/provider/http/http_transport.hpp \
	burstd/src/provider/aws/credential_chain.cpp \
	burstd/src/provider/aws/credential_chain.hpp \
	burstd/src/provider/aws/credential_source.hpp \
	burstd/src/provider/aws/environment_credentials.cpp \
	burstd/src/provider/aws/environment_credentials.hpp \
	burstd/src/provider/aws/environment_lookup.cpp \
	burstd/src/provider/aws/environment_lookup.hpp \
	burstd/src/provider/aws/imds_credentials.cpp \
	burstd/src/provider/aws/imds_credentials.hpp \
	burstd/src/provider/aws/ini_file.cpp \
	burstd/src/provider/aws/ini_file.hpp \
	burstd/src/provider/aws/shared_file_credentials.cpp \
	burstd/src/provider/aws/shared_file_credentials.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/credentials_test.cpp \
	tests/unit/provider/aws/scripted_transport.hpp
libburst_a_SOURCES += \
	burstd/src/provider/aws/ec2_error_classifier.cpp \
	burstd/src/provider/aws/ec2_error_classifier.hpp \
	burstd/src/provider/aws/ec2_query.cpp \
	burstd/src/provider/aws/ec2_query.hpp \
	burstd/src/provider/aws/ec2_responses.cpp \
	burstd/src/provider/aws/ec2_responses.hpp \
	burstd/src/provider/aws/xml_document.cpp \
	burstd/src/provider/aws/xml_document.hpp \
	burstd/src/provider/aws/xml_error.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/ec2_error_classifier_test.cpp \
	tests/unit/provider/aws/ec2_query_test.cpp \
	tests/unit/provider/aws/ec2_responses_test.cpp \
	tests/unit/provider/aws/fixture.hpp
libburst_a_SOURCES += \
	burstd/src/provider/aws/ec2_client.cpp \
	burstd/src/provider/aws/ec2_client.hpp \
	burstd/src/provider/aws/ec2_provider.cpp \
	burstd/src/provider/aws/ec2_provider.hpp \
	burstd/src/provider/aws/ec2_provider_config.hpp \
	burstd/src/provider/aws/ec2_fleet_launcher.cpp \
	burstd/src/provider/aws/ec2_fleet_launcher.hpp \
	burstd/src/provider/aws/ec2_provider_settings.cpp \
	burstd/src/provider/aws/ec2_provider_settings.hpp
tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/aws/ec2_provider_test.cpp \
	tests/unit/provider/aws/ec2_fleet_launcher_test.cpp \
	tests/unit/provider/aws/ec2_provider_settings_test.cpp

# Prints the requests Ec2Client would send, for the AWS SDK oracle
# (tests/providers/test_aws_sdk_oracle.sh).
noinst_PROGRAMS += tests/providers/ec2-sign-check
tests_providers_ec2_sign_check_SOURCES = tests/providers/ec2_sign_check.cpp
tests_providers_ec2_sign_check_LDADD = $(BURST_LIBS)
# Provider "aws" over TLS against tests/providers/ec2_tls_server.py.
noinst_PROGRAMS += tests/providers/ec2-provider-check
tests_providers_ec2_provider_check_SOURCES = tests/providers/ec2_provider_check.cpp
tests_providers_ec2_provider_check_LDADD = $(BURST_LIBS)

EXTRA_DIST += \
	tests/providers/run-all.sh \
	tests/providers/test_aws_sdk_oracle.sh \
	tests/providers/test_ec2_tls_server.sh \
	tests/providers/ec2_tls_server.py \
	tests/providers/aws-sdk-oracle/package.json \
	tests/providers/aws-sdk-oracle/package-lock.json \
	tests/providers/aws-sdk-oracle/oracle.mjs
# The libcurl multi transport under load, over TLS (tests/providers/test_curl_multi.sh).
noinst_PROGRAMS += tests/providers/http-transport-check
tests_providers_http_transport_check_SOURCES = tests/providers/http_transport_check.cpp
tests_providers_http_transport_check_LDADD = $(BURST_LIBS)
EXTRA_DIST += \
	tests/providers/test_curl_multi.sh \
	tests/providers/https_count_server.py \
	tests/providers/lib/test_ca.sh
# Any provider built by the factory from a burstd.conf, driven from the shell
# (tests/providers/test_cloud_tls_server.sh, tests/openstack).
noinst_PROGRAMS += tests/providers/provider-conf-check
tests_providers_provider_conf_check_SOURCES = tests/providers/provider_conf_check.cpp
tests_providers_provider_conf_check_LDADD = $(BURST_LIBS)
EXTRA_DIST += \
	tests/providers/test_cloud_tls_server.sh \
	tests/providers/cloud_tls_server.py
