package io.tidemark.coprocessor.bundle;

import io.tidemark.writeset.WriteSetIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coprocessor bundle is the one jar a region server needs: every class in it is Tidemark's own or relocated under
 * {@code io.tidemark.shaded}, and every one of them links against the bundle plus the region server's classpath
 * (hbase-server and what it brings) alone. Runs after the bundle is built (package phase, see the pom).
 */
class CoprocessorBundleTest {

    private static final String SHADED = "io/tidemark/shaded/";

    private static JarFile bundle;
    private static URLClassLoader regionServer;
    private static URLClassLoader bundleLoader;

    @BeforeAll
    static void openBundle() throws IOException {
        Path jar = Paths.get(System.getProperty("tidemark.bundle.jar"));
        assertTrue(Files.isRegularFile(jar), jar + " is not built");
        bundle = new JarFile(jar.toFile());
        List<URL> serverJars = new ArrayList<>();
        String classpath = Files.readString(Paths.get(System.getProperty("tidemark.region-server.classpath"))).trim();
        for (String entry : classpath.split(java.io.File.pathSeparator)) {
            serverJars.add(Paths.get(entry).toUri().toURL());
        }
        // The platform loader as parent: the JDK, but nothing of this test's own classpath.
        regionServer = new URLClassLoader("region-server", serverJars.toArray(new URL[0]),
                ClassLoader.getPlatformClassLoader());
        bundleLoader = new URLClassLoader("bundle", new URL[] {jar.toUri().toURL()}, regionServer);
    }

    @AfterAll
    static void close() throws IOException {
        bundleLoader.close();
        regionServer.close();
        bundle.close();
    }

    @Test
    void everythingIsUnderIoTidemark() {
        List<String> outside = new ArrayList<>();
        for (String name : entryNames()) {
            boolean tidemarks = name.startsWith("io/tidemark/") || isDirectoryOf(name, "io/tidemark/");
            if (!tidemarks && !name.startsWith("META-INF/")) {
                outside.add(name);
            }
        }
        assertEquals(List.of(), outside, "entries of the bundle outside io/tidemark/");
    }

    @Test
    void thirdPartyClassesAreRelocatedAndHbaseIsNotBundled() {
        Set<String> packages = new TreeSet<>();
        for (String name : classNames()) {
            if (name.startsWith(SHADED)) {
                packages.add(name.substring(SHADED.length(), name.lastIndexOf('/')));
            }
        }
        // Decided per dependency in the pom: zero-allocation-hashing is the only library a region server lacks.
        assertEquals(Set.of("net/openhft/hashing"), packages);
        assertTrue(classNames().stream().noneMatch(n -> n.contains("/apache/") || n.contains("/netty/")),
                "HBase, Hadoop and Netty come from the region server");
    }

    @Test
    void bundleHoldsTheObserversAndEveryModuleTheyUse() {
        Set<String> classes = classNames();
        for (String expected : List.of(
                "io/tidemark/coprocessor/TransactionalRegionObserver.class",
                "io/tidemark/coprocessor/snapshot/SnapshotObserver.class",
                "io/tidemark/coprocessor/compaction/CompactionObserver.class",
                "io/tidemark/coprocessor/fastpath/FastPathObserver.class",
                "io/tidemark/coprocessor/load/LoadGuardObserver.class",
                "io/tidemark/coprocessor/committable/CommitRecordGuard.class",
                "io/tidemark/visibility/WriterResolver.class",
                "io/tidemark/committable/HBaseCommitTable.class",
                "io/tidemark/table/TransactionalTableLayout.class",
                "io/tidemark/writeset/WriteSetIds.class")) {
            assertTrue(classes.contains(expected), expected + " is missing");
        }
        assertTrue(bundle.getEntry("io/tidemark/version/tidemark-version.properties") != null,
                "the version resource of tidemark-common");
    }

    @Test
    void everyClassLinksAgainstTheBundleAndTheRegionServerClasspathAlone() throws Exception {
        List<String> failures = new ArrayList<>();
        int classes = 0;
        for (String entry : classNames()) {
            classes++;
            String name = toBinaryName(entry);
            try {
                Class<?> type = Class.forName(name, false, bundleLoader);
                assertEquals(bundleLoader, type.getClassLoader(), name + " came from outside the bundle");
                // Member signatures (field, parameter, return and exception types) must resolve...
                type.getDeclaredFields();
                type.getDeclaredConstructors();
                for (Method m : type.getDeclaredMethods()) {
                    m.getGenericReturnType();
                }
                type.getGenericSuperclass();
                type.getGenericInterfaces();
                // ...and so must every class the byte code refers to, method bodies included.
                for (String referenced : referencedClasses(entry)) {
                    try {
                        Class.forName(referenced, false, bundleLoader);
                    } catch (ClassNotFoundException | LinkageError e) {
                        failures.add(name + " refers to " + referenced + ": " + e);
                    }
                }
            } catch (ClassNotFoundException | LinkageError e) {
                failures.add(name + ": " + e);
            }
        }
        assertTrue(classes > 100, "only " + classes + " classes in the bundle");
        assertEquals(List.of(), failures);
    }

    @Test
    void relocatedHashingComputesTheSameWriteSetIds() throws Exception {
        byte[] table = "accounts".getBytes(StandardCharsets.UTF_8);
        byte[] row = "alice".getBytes(StandardCharsets.UTF_8);
        byte[] family = "a".getBytes(StandardCharsets.UTF_8);
        byte[] qualifier = "balance".getBytes(StandardCharsets.UTF_8);
        Class<?> bundled = Class.forName(WriteSetIds.class.getName(), true, bundleLoader);
        Method cell = bundled.getMethod("cell", byte[].class, byte[].class, byte[].class, byte[].class);
        assertEquals(WriteSetIds.cell(table, row, family, qualifier), cell.invoke(null, table, row, family, qualifier));
    }

    private static List<String> entryNames() {
        List<String> names = new ArrayList<>();
        for (Enumeration<JarEntry> e = bundle.entries(); e.hasMoreElements(); ) {
            names.add(e.nextElement().getName());
        }
        return names;
    }

    private static Set<String> classNames() {
        Set<String> classes = new TreeSet<>();
        for (String name : entryNames()) {
            if (name.endsWith(".class")) {
                classes.add(name);
            }
        }
        return classes;
    }

    /** {@code io/} is a parent directory of {@code io/tidemark/}. */
    private static boolean isDirectoryOf(String name, String prefix) {
        return name.endsWith("/") && prefix.startsWith(name);
    }

    private static String toBinaryName(String entry) {
        return entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
    }

    /** The classes named by a class file's constant pool (CONSTANT_Class entries), array types reduced to elements. */
    private static Set<String> referencedClasses(String entry) throws IOException {
        try (InputStream in = bundle.getInputStream(bundle.getJarEntry(entry))) {
            DataInputStream data = new DataInputStream(in);
            data.readInt(); // magic
            data.readUnsignedShort(); // minor version
            data.readUnsignedShort(); // major version
            int count = data.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classNameIndexes = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1: // Utf8
                        utf8[i] = data.readUTF();
                        break;
                    case 7: // Class
                        classNameIndexes.add(data.readUnsignedShort());
                        break;
                    case 8: // String
                    case 16: // MethodType
                    case 19: // Module
                    case 20: // Package
                        data.readUnsignedShort();
                        break;
                    case 15: // MethodHandle
                        data.readUnsignedByte();
                        data.readUnsignedShort();
                        break;
                    case 3: // Integer
                    case 4: // Float
                    case 9: // Fieldref
                    case 10: // Methodref
                    case 11: // InterfaceMethodref
                    case 12: // NameAndType
                    case 17: // Dynamic
                    case 18: // InvokeDynamic
                        data.readInt();
                        break;
                    case 5: // Long
                    case 6: // Double
                        data.readLong();
                        i++; // takes two slots
                        break;
                    default:
                        throw new IOException(entry + ": unknown constant pool tag " + tag);
                }
            }
            Set<String> classes = new TreeSet<>();
            for (int index : classNameIndexes) {
                String internal = utf8[index];
                if (internal.startsWith("[")) {
                    int element = internal.lastIndexOf('[') + 1;
                    if (internal.charAt(element) != 'L') {
                        continue; // an array of primitives
                    }
                    internal = internal.substring(element + 1, internal.length() - 1);
                }
                classes.add(internal.replace('/', '.'));
            }
            return classes;
        }
    }
}
