# build rules for burstd/tools (appends to the variables declared in Makefile.am)

# burstctl: Slurm's Resume/Suspend/ResumeFailProgram and the admin's status view (owner: core)
sbin_PROGRAMS += burstd/tools/burstctl/burstctl
burstd_tools_burstctl_burstctl_SOURCES = burstd/tools/burstctl/burstctl.cpp
burstd_tools_burstctl_burstctl_LDADD = $(BURST_LIBS)
dist_man_MANS += man/burstctl.1
