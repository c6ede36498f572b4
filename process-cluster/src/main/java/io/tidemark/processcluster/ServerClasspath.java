package io.tidemark.processcluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * What the build recorded for the cluster's server processes: the jars of stock HBase (with the HDFS and ZooKeeper it
 * brings) in the local Maven repository, the coprocessor bundle, and the JVM flags HBase needs on JDK 17. Nothing is
 * downloaded when a cluster starts: every jar is one the build already has.
 *
 * @param serverJars HBase, HDFS, ZooKeeper and what they need; nothing of Tidemark
 * @param coprocessorBundle the one jar region servers (and the master) get from Tidemark, built for this build's
 *                          HBase line
 * @param hbaseJvmFlags the root pom's {@code hbase.jvm.flags}
 */
public record ServerClasspath(List<Path> serverJars, Path coprocessorBundle, List<String> hbaseJvmFlags) {

    private static final String CLASSPATH_RESOURCE = "server-classpath.txt";
    private static final String BUNDLE_RESOURCE = "coprocessor-bundle.txt";
    private static final String BUILD_RESOURCE = "build.properties";

    public ServerClasspath {
        serverJars = List.copyOf(serverJars);
        hbaseJvmFlags = List.copyOf(hbaseJvmFlags);
    }

    /** What this build recorded; fails, naming the file, when a jar is missing (a cleaned local repository). */
    public static ServerClasspath ofThisBuild() {
        List<Path> jars = new ArrayList<>();
        for (String entry : read(CLASSPATH_RESOURCE).trim().split(java.io.File.pathSeparator)) {
            jars.add(Path.of(entry));
        }
        Properties build = new Properties();
        try {
            build.load(new java.io.StringReader(read(BUILD_RESOURCE)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ServerClasspath classpath = new ServerClasspath(jars, Path.of(read(BUNDLE_RESOURCE).trim()),
                Arrays.asList(build.getProperty("hbase.jvm.flags").trim().split("\\s+")));
        classpath.checkPresent();
        return classpath;
    }

    /** The classpath of a ZooKeeper or HDFS process: its configuration folder, then the server jars. */
    public List<Path> withoutBundle(Path confDir) {
        List<Path> all = new ArrayList<>();
        all.add(confDir);
        all.addAll(serverJars);
        return all;
    }

    /** The classpath of an HBase process: its configuration folder, the server jars, the coprocessor bundle. */
    public List<Path> withBundle(Path confDir) {
        List<Path> all = withoutBundle(confDir);
        all.add(coprocessorBundle);
        return all;
    }

    private void checkPresent() {
        List<Path> all = new ArrayList<>(serverJars);
        all.add(coprocessorBundle);
        for (Path jar : all) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: the process cluster runs the jars the build"
                        + " resolved; rebuild (mvn -B -DskipTests install) to resolve them again");
            }
        }
    }

    private static String read(String resource) {
        try (InputStream in = ServerClasspath.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the classpath: build the process-cluster"
                        + " module with Maven");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
