package io.securethrift.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.securethrift.core.ClientAuth;
import io.securethrift.core.Secret;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.SecurityMode;
import io.securethrift.core.StoreType;
import io.securethrift.core.TlsEngine;
import io.securethrift.core.testing.ChildJvm;
import io.securethrift.testkit.ca.CertificateAuthorityExtension;
import io.securethrift.testkit.ca.CertificateDirectory;
import io.securethrift.testkit.ca.KeyStoreFormat;
import io.securethrift.testkit.ca.TestCertificateAuthority;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The library jars that have a {@code module-info} (docs/api.md, "Modules") work on the module path, which the other
 * tests never use (they run on the class path): their descriptors export the API and keep
 * {@code io.securethrift.core.internal} to securethrift's own modules, core binds the TLS and SASL layers through
 * {@code uses} and {@code provides}, and a program on the class path beside them (the unnamed module, as most
 * applications are) opens a plain and a TLS connection through them ({@link ModulePathProgram}, in a child JVM).
 */
@ExtendWith(CertificateAuthorityExtension.class)
class ModulePathTest {
  private static final String CORE = "io.securethrift.core";
  private static final String INTERNAL = "io.securethrift.core.internal";
  private static final String TLS_INTERNAL = "io.securethrift.tls.internal";
  /** The library modules with a module-info; accumulo and zookeeper stay automatic (docs/api.md says why). */
  private static final Set<String> EXPLICIT = Set.of(CORE, "io.securethrift.tls", "io.securethrift.sasl",
      "io.securethrift.netty");
  /** What else the child's module path holds: the explicit modules' dependencies in their poms, and a log binding. */
  private static final Set<String> DEPENDENCIES = Set.of("org.apache.thrift", "org.slf4j", "org.slf4j.simple",
      "org.conscrypt");
  private static final String NETTY = "io.netty.";
  private static final char[] PASSWORD = "changeit".toCharArray();

  @Test
  void descriptorsExportEveryPackageButCoreInternalWhichOnlySiblingsRead() {
    Map<String, ModuleReference> path = modulePath();
    for (String name : EXPLICIT) {
      ModuleDescriptor descriptor = path.get(name).descriptor();
      assertFalse(descriptor.isAutomatic(), name + " at " + path.get(name).location() + " has no module-info.class");
      Set<String> unqualified = descriptor.exports().stream().filter(e -> !e.isQualified())
          .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new));
      Set<String> api = new TreeSet<>(descriptor.packages());
      api.remove(INTERNAL);
      api.remove(TLS_INTERNAL);
      assertEquals(api, unqualified, name + " must export every package of its API, and no other, to everyone");
    }
    assertEquals(Set.of("io.securethrift.tls", "io.securethrift.sasl", "io.securethrift.netty",
        "io.securethrift.accumulo"), targets(path, CORE, INTERNAL), INTERNAL + " is for the modules that use it");
    assertEquals(Set.of("io.securethrift.zookeeper", "io.securethrift.accumulo"),
        targets(path, "io.securethrift.tls", TLS_INTERNAL), TLS_INTERNAL + " (the one Conscrypt provider) likewise");
  }

  private static Set<String> targets(Map<String, ModuleReference> path, String module, String internalPackage) {
    return path.get(module).descriptor().exports().stream().filter(e -> e.source().equals(internalPackage))
        .findFirst().orElseThrow().targets();
  }

  @Test
  void coreAloneBindsTheTlsAndSaslLayers() {
    ModuleFinder finder = ModuleFinder.of(modulePath().values().stream().map(ModulePathTest::location)
        .toArray(Path[]::new));
    Configuration graph = ModuleLayer.boot().configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of(CORE));
    Set<String> resolved = graph.modules().stream().map(m -> m.name()).collect(Collectors.toCollection(TreeSet::new));
    assertTrue(resolved.containsAll(Set.of("io.securethrift.tls", "io.securethrift.sasl")), "core uses LayerProvider,"
        + " which tls and sasl provide, so resolving core alone must bind them; resolved: " + resolved);
  }

  @Test
  void plainAndTlsConnectionsRunOnTheModulePath(TestCertificateAuthority ca, @CertificateDirectory Path dir)
      throws Exception {
    Path keyStore = ca.leaf().issue().writeKeyStore(dir, "server", KeyStoreFormat.PKCS12, PASSWORD);
    Path trustStore = ca.writeTrustStore(dir, KeyStoreFormat.PKCS12, PASSWORD);
    SecurityConfig none = SecurityConfig.builder().mode(SecurityMode.NONE).build();
    write(dir.resolve("none-server.properties"), none);
    write(dir.resolve("none-client.properties"), none);
    // Conscrypt on the client: its native library must load from an automatic module too.
    write(dir.resolve("tls-server.properties"), tls(trustStore, TlsEngine.JSSE)
        .keyStore(keyStore, StoreType.PKCS12, Secret.of(PASSWORD)).clientAuth(ClientAuth.NONE).build());
    write(dir.resolve("tls-client.properties"), tls(trustStore, TlsEngine.CONSCRYPT).build());

    String modulePath = modulePath().values().stream().map(m -> location(m).toString())
        .collect(Collectors.joining(File.pathSeparator));
    Path program = Path.of(ModulePathProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path log = dir.resolve("module-path-program.log");
    // Only core and the server are asked for: tls must come in as core's LayerProvider.
    try (ChildJvm child = ChildJvm.builder(ModulePathProgram.class).classPath(program.toString())
        .jvmOptions(List.of("--module-path", modulePath, "--add-modules", CORE + ",io.securethrift.netty"))
        .args(List.of(dir.toString())).log(log).start()) {
      assertTrue(child.process().waitFor(2, TimeUnit.MINUTES), "the module-path program did not finish");
      assertEquals(0, child.process().exitValue(), "the module-path program failed:\n" + child.logTail(60));
    }
    String output = Files.readString(log);
    for (String line : List.of("none: " + ModulePathProgram.GREETING + " over plain TCP",
        "tls: " + ModulePathProgram.GREETING + " over TLSv1.3", "tls: JMX HandshakeSuccesses 1",
        ModulePathProgram.DONE)) {
      assertTrue(output.contains(line), "the module-path program did not print '" + line + "':\n" + output);
    }
  }

  /**
   * The explicit modules and their dependencies from this test's class path, by module name; the first of a name wins,
   * as on a module path. Nothing else: every automatic module on a module path is resolved once one is.
   */
  private static Map<String, ModuleReference> modulePath() {
    Map<String, ModuleReference> found = new LinkedHashMap<>();
    for (Path entry : LibraryBytecodeTest.testClassPath()) {
      Set<ModuleReference> modules;
      try {
        modules = ModuleFinder.of(entry).findAll();
      } catch (FindException notAModule) {
        // A directory of test classes, or a jar whose file name makes no module name: not a module we want.
        continue;
      }
      for (ModuleReference module : modules) {
        String name = module.descriptor().name();
        if (EXPLICIT.contains(name) || DEPENDENCIES.contains(name) || name.startsWith(NETTY)) {
          found.putIfAbsent(name, module);
        }
      }
    }
    Set<String> missing = new TreeSet<>(EXPLICIT);
    missing.removeAll(found.keySet());
    assertEquals(Set.of(), missing, "the library modules must be test dependencies of docs/pom.xml");
    return found;
  }

  private static Path location(ModuleReference module) {
    return Path.of(module.location().orElseThrow());
  }

  private static SecurityConfig.Builder tls(Path trustStore, TlsEngine engine) {
    return SecurityConfig.builder().mode(SecurityMode.TLS).tlsEngine(engine)
        .trustStore(trustStore, StoreType.PKCS12, Secret.of(PASSWORD));
  }

  private static void write(Path file, SecurityConfig config) throws IOException {
    Properties properties = new Properties();
    properties.putAll(config.toProperties());
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(out, null);
    }
  }
}
