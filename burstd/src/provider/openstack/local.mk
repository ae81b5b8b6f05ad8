# build rules for burstd/src/provider/openstack (appends to the variables declared in Makefile.am)
# The libcurl transport (burstd/src/provider/http/curl_transport.*) is built
# from here too: the openstack provider needed it first.
libburst_a_SOURCES += \
	burstd/src/provider/openstack/openstack_provider_builder.cpp \
	burstd/src/provider/openstack/openstack_provider_builder.hpp \
	burstd/src/provider/http/curl_multi.cpp \
	burstd/src/provider/http/curl_multi.hpp \
	burstd/src/provider/http/curl_transport.cpp \
	burstd/src/provider/http/curl_transport.hpp \
	burstd/src/provider/openstack/keystone_session.cpp \
	burstd/src/provider/openstack/keystone_session.hpp \
	burstd/src/provider/openstack/nova_server.cpp \
	burstd/src/provider/openstack/nova_server.hpp \
	burstd/src/provider/openstack/openstack_credentials.cpp \
	burstd/src/provider/openstack/openstack_credentials.hpp \
	burstd/src/provider/openstack/openstack_error.cpp \
	burstd/src/provider/openstack/openstack_error.hpp \
	burstd/src/provider/openstack/openstack_provider.cpp \
	burstd/src/provider/openstack/openstack_provider.hpp \
	burstd/src/provider/openstack/openstack_settings.cpp \
	burstd/src/provider/openstack/openstack_settings.hpp \
	burstd/src/provider/openstack/service_url.cpp \
	burstd/src/provider/openstack/service_url.hpp

tests_unit_unit_tests_SOURCES += \
	tests/unit/provider/http/curl_transport_test.cpp \
	tests/unit/provider/openstack/keystone_session_test.cpp \
	tests/unit/provider/openstack/openstack_credentials_test.cpp \
	tests/unit/provider/openstack/openstack_error_test.cpp \
	tests/unit/provider/openstack/openstack_provider_test.cpp

# Drives the real provider class from the shell: tests/openstack/test_openstack_provider.sh
noinst_PROGRAMS += tests/openstack/openstack-provider-check
tests_openstack_openstack_provider_check_SOURCES = tests/openstack/openstack_provider_check.cpp
tests_openstack_openstack_provider_check_LDADD = $(BURST_LIBS)

EXTRA_DIST += \
	tests/openstack/test_openstack_provider.sh \
	tests/openstack/lib/openstack.sh \
	tests/openstack/lib/os_setup.py \
	tests/openstack/lib/wsgi_run.py \
	tests/openstack/lib/etc/glance-api-paste.ini \
	tests/openstack/lib/etc/neutron-api-paste.ini \
	tests/openstack/lib/etc/nova-api-paste.ini
