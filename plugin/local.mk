# build rules for plugin (appends to the variables declared in Makefile.am)
#
# Two loadable modules: job_submit/burst for slurmctld, spank_burst for
# sbatch/srun/salloc and slurmstepd.  They include Slurm's internal headers
# from the configured source tree, whose config.h must not meet our DEFS.
slurmplugindir = $(slurm_plugindir)
slurmplugin_LTLIBRARIES = plugin/job_submit_burst.la plugin/spank_burst.la

BURST_PLUGIN_CPPFLAGS = -UPACKAGE -UPACKAGE_NAME -UPACKAGE_TARNAME -UPACKAGE_VERSION \
	-UPACKAGE_STRING -UPACKAGE_BUGREPORT -UPACKAGE_URL -UVERSION \
	-DHAVE_CONFIG_H -DBURST_VERSION='"$(PACKAGE_VERSION)"' \
	-I$(SLURM_SOURCE) -I$(SLURM_SOURCE)/slurm $(JANSSON_CFLAGS)

BURST_PLUGIN_PURE = plugin/burst_conf.c plugin/burst_conf.h \
	plugin/burst_tags.c plugin/burst_tags.h \
	plugin/burst_category.c plugin/burst_category.h \
	plugin/burst_advice.c plugin/burst_advice.h \
	plugin/burst_link.c plugin/burst_link.h \
	plugin/snapshot.c plugin/snapshot.h \
	plugin/snapshot_json.c plugin/snapshot_json.h \
	plugin/jobs_text.c plugin/jobs_text.h \
	plugin/snapshot_delta.c plugin/snapshot_delta.h \
	plugin/state_stream.c plugin/state_stream.h \
	plugin/node_gres.c plugin/node_gres.h \
	plugin/node_cpus.c plugin/node_cpus.h

plugin_job_submit_burst_la_SOURCES = plugin/job_submit_burst.c plugin/job_submit_compat.h \
	plugin/exporter.c plugin/exporter.h plugin/slurmctld_compat.h $(BURST_PLUGIN_PURE)
plugin_job_submit_burst_la_CPPFLAGS = $(BURST_PLUGIN_CPPFLAGS)
plugin_job_submit_burst_la_CFLAGS = $(AM_CFLAGS) -pthread
plugin_job_submit_burst_la_LDFLAGS = -module -avoid-version -shared -pthread
plugin_job_submit_burst_la_LIBADD = $(JANSSON_LIBS) -lm

plugin_spank_burst_la_SOURCES = plugin/spank_burst.c plugin/burst_tags.c plugin/burst_tags.h
plugin_spank_burst_la_CPPFLAGS = $(SLURM_CPPFLAGS) -I$(SLURM_INCLUDEDIR)/slurm
plugin_spank_burst_la_LDFLAGS = -module -avoid-version -shared

# Unit tests of the parts that do not need slurmctld.
tests_unit_unit_tests_SOURCES += $(BURST_PLUGIN_PURE) \
	tests/unit/plugin/burst_conf_test.cpp \
	tests/unit/plugin/burst_tags_test.cpp \
	tests/unit/plugin/burst_category_test.cpp \
	tests/unit/plugin/burst_advice_test.cpp \
	tests/unit/plugin/burst_link_test.cpp \
	tests/unit/plugin/snapshot_json_test.cpp \
	tests/unit/plugin/hostlist_stand_ins.hpp \
	tests/unit/plugin/jobs_text_test.cpp \
	tests/unit/plugin/state_stream_test.cpp \
	tests/unit/plugin/node_gres_test.cpp \
	tests/unit/plugin/node_cpus_test.cpp

# slurmctld loads plugins lazily: an unresolved function kills it on first
# call, so every undefined symbol is checked against what the hosts export:
# the slurmctld of the Slurm configured for, and the libslurmfull it loads.
TESTS += plugin/check-symbols.sh
AM_TESTS_ENVIRONMENT += SLURMCTLD='$(SLURMCTLD)'; export SLURMCTLD;
EXTRA_DIST += plugin/check-symbols.sh
dist_man_MANS += man/spank_burst.8
