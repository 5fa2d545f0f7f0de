package io.securethrift.accumulo.otherjvm;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.securethrift.accumulo.otherjvm.OtherJvmMac.Line;
import io.securethrift.core.SecurityConfig;
import io.securethrift.core.transport.ClientTransportFactory;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.accumulo.core.conf.Property;
import org.apache.accumulo.miniclusterImpl.MiniAccumuloConfigImpl;
import org.apache.thrift.TException;

/**
 * An Accumulo 3.0 MiniAccumuloCluster in another JVM ({@link OtherJvmMac}, launcher Mac30), set up with exactly the
 * settings the 2.1 tests give theirs: Accumulo 3.0 kept 2.1's site and client property keys, so the shared 2.1
 * set-up ({@code io.securethrift.accumulo.mac}) fills a 2.1 {@link MiniAccumuloConfigImpl} that is never started,
 * and its site, client and system properties become the launcher's settings.
 *
 * <p>A setting that a server fixes when it starts ({@code rpc.sasl.qop}, TLS on or off, the JVM's TLS provider) can
 * differ per tablet server: {@link Builder#tabletServer} adds one with its own overrides, so one cluster serves
 * several modes instead of one cluster per mode. The manager talks to every tablet server with the cluster's own
 * settings; it cannot reach one whose mode differs and counts it as unresponsive, which leaves that server holding its
 * lock and serving clients (all the tests need of it).
 */
final class Accumulo30 {
  static final String ROOT_PASSWORD = "root-30";

  private Accumulo30() {}

  static Builder cluster(Consumer<MiniAccumuloConfigImpl> configure) {
    return new Builder(configure);
  }

  /** A securethrift client of {@code config} calling the tablet server at {@code hostAndPort}. */
  static ClientServiceCalls calls(ClientTransportFactory factory, String hostAndPort) throws TException {
    return ClientServiceCalls.open(factory, hostAndPort, true);
  }

  /** Asserts that a securethrift client with {@code config} cannot call the tablet server at {@code hostAndPort}. */
  static void assertRefuses(String hostAndPort, SecurityConfig config) {
    try (ClientTransportFactory factory = ClientTransportFactory.create(config)) {
      assertThrows(TException.class, () -> {
        try (ClientServiceCalls calls = calls(factory, hostAndPort)) {
          calls.getInstanceId();
        }
      });
    }
  }

  /** Where a class was loaded from, for the servers' class path. */
  static Path codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the class path entry of " + type.getName(), e);
    }
  }

  /** The cluster's settings, extra tablet servers and class path. */
  static final class Builder {
    private final MiniAccumuloConfigImpl config;
    private final List<String> settings = new ArrayList<>();
    private final List<Path> classPath = new ArrayList<>();

    private Builder(Consumer<MiniAccumuloConfigImpl> configure) {
      // Only a holder of settings: never initialized or started, so its directory is never created.
      config = new MiniAccumuloConfigImpl(new File("unused"), ROOT_PASSWORD);
      configure.accept(config);
    }

    /**
     * One more tablet server, answered as {@code TSERVER.<name>} and {@code SITE.<name>}.
     *
     * @param site site properties that differ from the cluster's
     * @param system system properties of its JVM only
     */
    Builder tabletServer(String name, Map<String, String> site, Map<String, String> system) {
      site.forEach((k, v) -> settings.add("tserver." + name + ".site." + k + "=" + v));
      system.forEach((k, v) -> settings.add("tserver." + name + ".sys." + k + "=" + v));
      return this;
    }

    /** Class path entries for every server, after Accumulo 3.0's own. */
    Builder classPath(Path... entries) {
      classPath.addAll(List.of(entries));
      return this;
    }

    OtherJvmMac start() throws IOException {
      List<String> all = new ArrayList<>(List.of("root.password=" + ROOT_PASSWORD,
          "root.user=" + config.getRootUserName()));
      Map<String, String> site = config.getSiteConfig();
      site.forEach((k, v) -> all.add("site." + k + "=" + v));
      config.getClientProps().forEach((k, v) -> all.add("client." + k + "=" + v));
      config.getSystemProperties().forEach((k, v) -> all.add("sys." + k + "=" + v));
      // KerberizedCluster writes core-site.xml through a MAC 2.1 hook, which cannot reach the other JVM.
      if (Boolean.parseBoolean(site.get(Property.INSTANCE_RPC_SASL_ENABLED.getKey()))) {
        all.add("core-site.kerberos=true");
      }
      all.addAll(settings);
      return OtherJvmMac.start(Line.ACCUMULO_3_0, all, classPath, "");
    }
  }
}
