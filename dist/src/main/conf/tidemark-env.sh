# Sourced by bin/tidemark before it starts Java. Everything here is optional: uncomment and edit what you need.
# Variables already set in the environment (for example by a systemd unit's Environment=) are overridden by the
# lines you uncomment here, so prefer one place for each.

# The JDK to run (17 or newer); unset: the java on the PATH.
# export JAVA_HOME=/usr/lib/jvm/java-17-openjdk

# Maximum heap of the JVM (-Xmx); 2g serves a TSO with the default conflict map (4 Mi entries, 64 MiB) easily.
# TIDEMARK_HEAP=2g

# JVM options of your own, added after Tidemark's (so they win), for example GC logging:
# JAVA_OPTS="-Xlog:gc*:file=/var/log/tidemark/gc.log:time,uptime:filecount=5,filesize=20m"

# Where the TSO and the sweeper write their rolling log files (conf/log4j2.xml); unset: <install>/logs.
# TIDEMARK_LOG_DIR=/var/log/tidemark
